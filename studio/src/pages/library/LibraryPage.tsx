import { PageHeader } from '../../components/PageHeader';

export default function LibraryPage() {
  return <PageHeader title="LibraryPage" />;
}
