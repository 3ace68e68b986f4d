/** Saved reactions: clean clips kept from previews, to caption again in a new video without generating. */
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconSparkles, IconTrash } from '../../components/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import type { Schemas } from '#client/types';
import { api } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { useReactions } from '../create/useReactions';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatDate, formatDuration } from '../videos/format';

type SavedReaction = Schemas['SavedReaction'];

const METHOD_WORDS: Record<SavedReaction['method'], string> = { prompt: 'From a prompt', motion: 'Copied motion', reuse: 'Reused' };

function ReactionCard({ reaction }: { reaction: SavedReaction }) {
  const queries = useQueryClient();
  const name = `Saved reaction #${reaction.id}`;
  return (
    <Card withBorder padding="sm">
      <Card.Section>
        {/* Metadata only until played: a library of clips should not download them all at once. */}
        <video src={reaction.clip_url} controls playsInline preload="metadata" aria-label={name} style={{ width: '100%', aspectRatio: '9 / 16', background: '#000', display: 'block' }} />
      </Card.Section>
      <Stack gap={4} mt="xs">
        <Text size="sm" fw={500}>
          #{reaction.id} · {METHOD_WORDS[reaction.method]}
          {reaction.emotion ? ` · ${reaction.emotion}` : ''}
        </Text>
        {reaction.prompt && (
          <Text size="xs" lineClamp={2}>
            {reaction.prompt}
          </Text>
        )}
        <Text size="xs" c="gray.7">
          {formatDuration(reaction.duration_s)} · saved {formatDate(reaction.created_at)}
        </Text>
        <Group gap="xs" mt={4}>
          <Button component={Link} to={`/create?reaction_id=${reaction.id}`} size="xs" leftSection={<IconSparkles size={14} />} aria-label={`Use in a new video: reaction #${reaction.id}`}>
            Use in a new video
          </Button>
          <ConfirmButton
            label="Delete"
            aria-label={`Delete reaction #${reaction.id}`}
            leftSection={<IconTrash size={16} />}
            title={`Delete saved reaction #${reaction.id}?`}
            message="The clip leaves the library and frees its place. Finished videos made with it are kept; a job still using it fails."
            onConfirm={() => unwrap(api.DELETE('/reactions/{id}', { params: { path: { id: reaction.id } } }))}
            onDone={() => void queries.invalidateQueries({ queryKey: ['reactions'] })}
          />
        </Group>
      </Stack>
    </Card>
  );
}

export default function LibraryPage() {
  const reactions = useReactions();
  return (
    <>
      <PageHeader title="Reaction library" description="Reactions you kept from previews. Reusing one captions it again and generates nothing." />
      <QueryStatus query={reactions} loading="Loading the library" />
      {reactions.data?.length === 0 && (
        <Alert variant="light" title="The library is empty">
          <Text size="sm" mb="sm">
            Make a video in Preview mode; when the preview is ready, choose “Save reaction to library” on its job page.
          </Text>
          <Button component={Link} to="/create" size="xs">
            Create a video
          </Button>
        </Alert>
      )}
      {reactions.data && reactions.data.length > 0 && (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
          {reactions.data.map((reaction) => (
            <ReactionCard key={reaction.id} reaction={reaction} />
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
