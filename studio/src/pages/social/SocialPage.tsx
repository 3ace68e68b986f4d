/** Social: connect scheduling providers, publish finished videos through them, and follow the posts. */
import { useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useVideoHook } from '../videos/video-names';
import { ConnectionsSection } from './ConnectionsSection';
import { PostComposer } from './PostComposer';
import { PostsSection } from './PostsSection';
import { fetchConnections, SOCIAL_KEYS } from './social-queries';

export default function SocialPage() {
  const connections = useQuery({ queryKey: SOCIAL_KEYS.connections, queryFn: fetchConnections });
  const [page, setPage] = useState(1);
  const usable = connections.data?.filter((c) => c.status === 'active') ?? [];
  // "Post it" on a video opens this page with it chosen and its hook as the caption to start from.
  const [params] = useSearchParams();
  const chosen = /^[1-9][0-9]*$/.test(params.get('video_id') ?? '') ? params.get('video_id') : null;
  const hook = useVideoHook(chosen === null ? null : Number(chosen));

  return (
    <Stack gap="xl">
      <PageHeader title="Social" description="Publish your finished videos to TikTok, Instagram, YouTube and more through a scheduling provider." />
      <ConnectionsSection />
      {connections.data && usable.length === 0 && (
        <Alert variant="default" title="Connect a provider to post">
          Connect one of the providers above with its API key; its channels then appear here to post to.
        </Alert>
      )}
      {usable.length > 0 && (
        // Remounted when the usable providers change, so the form starts from the connections as they are.
        <PostComposer key={usable.map((c) => c.provider).join()} connections={usable} onPosted={() => setPage(1)} videoId={chosen} suggestedCaption={hook} />
      )}
      <PostsSection page={page} onPageChange={setPage} />
    </Stack>
  );
}
