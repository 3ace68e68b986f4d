import { PageHeader } from '../../components/PageHeader';

export default function AnalyticsPage() {
  return <PageHeader title="AnalyticsPage" />;
}
