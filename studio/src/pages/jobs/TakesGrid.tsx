/**
 * A preview job's takes side by side, each playable, one picked to approve. "Play all" starts them
 * together from the beginning (muted), to compare the reactions beat by beat.
 */
import { useRef } from 'react';
import { Badge, Button, Card, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Take } from '#client/types';
import { IconPlayerPlay } from '../../components/icons';
import { takeLabel } from './take-words';

interface Props {
  takes: Take[];
  picked: number | null;
  onPick: (take: number) => void;
}

export function TakesGrid({ takes, picked, onPick }: Props) {
  const grid = useRef<HTMLDivElement>(null);
  const playAll = () => {
    for (const video of grid.current?.querySelectorAll('video') ?? []) {
      video.muted = true;
      video.currentTime = 0;
      void video.play().catch(() => undefined);
    }
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm">Each regenerate kept the takes before it. Pick the one to finish.</Text>
        <Button variant="default" size="xs" leftSection={<IconPlayerPlay size={14} />} onClick={playAll}>
          Play all
        </Button>
      </Group>
      <Radio.Group value={picked === null ? null : String(picked)} onChange={(value) => onPick(Number(value))} label="Take to approve">
        <SimpleGrid ref={grid} cols={{ base: 2, sm: 3, lg: 4 }} mt="xs">
          {takes.map((take, i) => (
            <Card key={take.take} withBorder padding="xs" data-picked={picked === take.take || undefined} style={picked === take.take ? { borderColor: 'var(--mantine-color-violet-7)', borderWidth: 2 } : undefined}>
              {take.preview_url && (
                <video src={take.preview_url} poster={take.preview_still_url ?? undefined} controls playsInline preload="metadata" aria-label={`Take ${take.take}`} style={{ width: '100%', aspectRatio: '9 / 16', background: '#000', borderRadius: 6 }} />
              )}
              <Stack gap={4} mt="xs">
                <Group gap={6}>
                  <Radio value={String(take.take)} label={`Take ${take.take}`} />
                  {take.current && (
                    <Badge size="xs" variant="light">
                      shown now
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="gray.7">
                  {takeLabel(take, takes[i - 1]).replace(/^Take \d+ · /, '')}
                </Text>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </Radio.Group>
    </Stack>
  );
}
