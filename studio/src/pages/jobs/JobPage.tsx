import { PageHeader } from '../../components/PageHeader';

export default function JobPage() {
  return <PageHeader title="JobPage" />;
}
