import { PageHeader } from '../../components/PageHeader';

export default function CreateVideoPage() {
  return <PageHeader title="CreateVideoPage" />;
}
