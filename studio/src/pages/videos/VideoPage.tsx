/** One finished video: play it, download the MP4, or delete it. */
import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconDownload, IconShare, IconTrash } from '../../components/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatBytes, formatDate, formatDuration } from './format';
import { downloadFileName } from './video-name';
import { fetchVideo, useVideoNames, videoKey } from './video-names';

export default function VideoPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const queries = useQueryClient();
  const video = useQuery({ queryKey: videoKey(id), queryFn: () => fetchVideo(id) });
  const v = video.data;
  const name = useVideoNames(Number.isFinite(id) ? [id] : [], v ? [v] : [])(id);
  return (
    <>
      <PageHeader
        title={name}
        description={`Video #${Number.isFinite(id) ? id : '?'}`}
        actions={
          <Anchor component={Link} to="/videos" size="sm">
            All videos
          </Anchor>
        }
      />
      <QueryStatus query={video} loading="Loading the video" />
      {v && (
        <Group align="flex-start" gap="xl" wrap="wrap">
          <video src={v.url} poster={v.thumbnail_url} controls playsInline aria-label="Finished video" style={{ width: 320, maxWidth: '100%', aspectRatio: `${v.width} / ${v.height}`, background: '#000', borderRadius: 8 }} />
          <Card withBorder padding="md" style={{ flex: '1 1 280px' }}>
            <Stack gap="sm">
              <Text size="sm">
                {formatDuration(v.duration_s)} · {v.width}×{v.height} · {formatBytes(v.size_bytes)}
              </Text>
              <Text size="sm" c="gray.7">
                Made {formatDate(v.created_at)} by <Anchor component={Link} to={`/jobs/${v.job_id}`} size="sm" underline="always">job #{v.job_id}</Anchor>.
              </Text>
              <Group gap="sm">
                {/* The API's link answers with its own file name (Content-Disposition); `download` names it where the browser lets a page do so. */}
                <Button component="a" href={v.download_url} download={downloadFileName(name, v.id)} leftSection={<IconDownload size={16} />}>
                  Download MP4
                </Button>
                <Button component={Link} to={`/social?video_id=${v.id}`} variant="default" leftSection={<IconShare size={16} />}>
                  Post it
                </Button>
              </Group>
              <Text size="xs" c="gray.7">
                The download link works until {formatDate(v.url_expires_at)}; open this page again for a fresh one.
              </Text>
              <Group>
                <ConfirmButton
                  label="Delete video"
                  confirmLabel="Delete"
                  size="sm"
                  leftSection={<IconTrash size={16} />}
                  title={`Delete “${name}”?`}
                  message="The video, its MP4 and its poster are removed. This cannot be undone."
                  onConfirm={() => unwrap(api.DELETE('/videos/{id}', { params: { path: { id: v.id } } }))}
                  onDone={() => {
                    void queries.invalidateQueries({ queryKey: ['videos'] });
                    navigate('/videos');
                  }}
                />
              </Group>
            </Stack>
          </Card>
        </Group>
      )}
    </>
  );
}
