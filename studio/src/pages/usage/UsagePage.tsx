import { PageHeader } from '../../components/PageHeader';

export default function UsagePage() {
  return <PageHeader title="UsagePage" />;
}
