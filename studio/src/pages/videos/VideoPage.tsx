import { PageHeader } from '../../components/PageHeader';

export default function VideoPage() {
  return <PageHeader title="VideoPage" />;
}
