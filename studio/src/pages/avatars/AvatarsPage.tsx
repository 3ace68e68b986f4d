import { PageHeader } from '../../components/PageHeader';

export default function AvatarsPage() {
  return <PageHeader title="AvatarsPage" />;
}
