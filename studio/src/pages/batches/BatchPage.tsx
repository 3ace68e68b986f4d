/**
 * A batch of variants (POST /videos/batch): its videos as a grid, each preview playing beside the
 * others ("Play all" starts them together), with approve, regenerate, save, open and post for each.
 * It follows the jobs as they run.
 */
import { useRef } from 'react';
import { Anchor, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { IconPlayerPlay } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { UnitsLeft } from '../usage/UnitsLeft';
import { videoName } from '../videos/video-name';
import { useProductNames } from '../videos/video-names';
import { BatchJobCard } from './BatchJobCard';
import { batchSummary } from './batch-words';
import { useBatch } from './useBatch';

function playAll(grid: HTMLElement | null) {
  for (const video of grid?.querySelectorAll('video') ?? []) {
    video.muted = true;
    video.currentTime = 0;
    void video.play().catch(() => undefined);
  }
}

export default function BatchPage() {
  const id = Number(useParams().id);
  const batch = useBatch(id);
  const productName = useProductNames(batch.data ? [batch.data.product_id] : []);
  const grid = useRef<HTMLDivElement>(null);
  const product = batch.data ? productName(batch.data.product_id) : undefined;
  const previews = batch.data?.counts.preview_ready ?? 0;
  return (
    <>
      <PageHeader
        title={product ? `${product} · variants` : 'Variants'}
        description={`Batch #${Number.isFinite(id) ? id : '?'}. Each variant is its own job; this page follows them as they run, and you are told when they finish.`}
        actions={
          <Anchor component={Link} to="/jobs" size="sm">
            All jobs
          </Anchor>
        }
      />
      <QueryStatus query={batch} loading="Loading the batch" />
      {batch.data && (
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap">
            <Text fw={500} aria-live="polite">
              {batchSummary(batch.data)}
            </Text>
            {previews > 0 && (
              <Group gap="sm">
                <UnitsLeft cost={0} />
                <Button variant="default" size="xs" leftSection={<IconPlayerPlay size={14} />} onClick={() => playAll(grid.current)}>
                  Play all
                </Button>
              </Group>
            )}
          </Group>
          <SimpleGrid ref={grid} cols={{ base: 1, xs: 2, md: 3, xl: 4 }}>
            {batch.data.jobs.map((job) => {
              const hook = job.hook_text?.trim() || 'No caption';
              return <BatchJobCard key={job.id} job={job} hook={hook} name={videoName({ id: job.video_id, productName: product, hookText: job.hook_text })} />;
            })}
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
