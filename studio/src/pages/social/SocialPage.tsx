import { PageHeader } from '../../components/PageHeader';

export default function SocialPage() {
  return <PageHeader title="SocialPage" />;
}
