import { PageHeader } from '../../components/PageHeader';

export default function SettingsPage() {
  return <PageHeader title="SettingsPage" />;
}
