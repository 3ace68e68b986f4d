import { PageHeader } from '../../components/PageHeader';

export default function VideosPage() {
  return <PageHeader title="VideosPage" />;
}
