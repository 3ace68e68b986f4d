import { PageHeader } from '../../components/PageHeader';

export default function ProductsPage() {
  return <PageHeader title="ProductsPage" />;
}
