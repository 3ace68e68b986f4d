/**
 * Ten caption ideas for a product (POST /hooks), asked for only when the person wants them: each one
 * can be picked as a video's hook text. Used on the products page and when creating a video.
 */
import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconBulb, IconRefresh } from './icons';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '#client/result';
import { api } from '../api/client';
import { ProblemAlert } from './ProblemAlert';

interface HookIdeasProps {
  productId: number;
  onPick: (text: string) => void;
  /** The verb on each idea's button; "Use" by default. */
  pickLabel?: string;
}

export function HookIdeas({ productId, onPick, pickLabel = 'Use' }: HookIdeasProps) {
  const [asked, setAsked] = useState(false);
  const ideas = useQuery({
    queryKey: ['hooks', productId],
    queryFn: async () => (await unwrap(api.POST('/hooks', { body: { product_id: productId } }))).data.hooks,
    enabled: asked,
    staleTime: Infinity,
  });
  if (!asked) {
    return (
      <Button variant="light" leftSection={<IconBulb size={16} />} onClick={() => setAsked(true)}>
        Suggest hooks
      </Button>
    );
  }
  if (ideas.isPending) return <Loader size="sm" aria-label="Finding hook ideas" />;
  if (ideas.isError) return <ProblemAlert error={ideas.error} />;
  return (
    <Stack gap="xs" aria-label="Hook ideas" role="group">
      {ideas.data.map((idea) => (
        <Group key={idea.text} justify="space-between" wrap="nowrap" gap="sm">
          <div>
            <Text size="sm">{idea.text}</Text>
            <Badge size="xs" variant="outline" color="gray">
              {idea.format.replace(/_/g, ' ')}
            </Badge>
          </div>
          <Button size="compact-xs" variant="subtle" onClick={() => onPick(idea.text)} aria-label={`${pickLabel}: ${idea.text}`}>
            {pickLabel}
          </Button>
        </Group>
      ))}
      <Group>
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} loading={ideas.isFetching} onClick={() => void ideas.refetch()}>
          More ideas
        </Button>
      </Group>
    </Stack>
  );
}
