/** Picks a saved reaction from the library: a reuse job captions it again without generating. */
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { QuerySelect } from '../../components/QuerySelect';
import { useReactions } from './useReactions';

interface Props {
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
}

export function ReactionSelect({ value, onChange, error }: Props) {
  const reactions = useReactions();
  const data = (reactions.data ?? []).map((reaction) => ({
    value: String(reaction.id),
    label: `#${reaction.id} · ${reaction.prompt ? reaction.prompt.slice(0, 60) : reaction.method}${reaction.emotion ? ` (${reaction.emotion})` : ''} · ${reaction.duration_s.toFixed(1)} s`,
  }));
  const empty = reactions.isSuccess && data.length === 0 && (
    <>
      The library is empty: make a video in Preview mode and choose “Save reaction to library” on its job page.{' '}
      <Anchor component={Link} to="/library" size="xs" underline="always">
        Open the library
      </Anchor>
    </>
  );
  return (
    <QuerySelect query={reactions} loadingPlaceholder="Loading the library…" label="Saved reaction" placeholder="Choose a saved reaction" data={data} value={value} onChange={onChange} error={error} required nothingFoundMessage="No reaction matches" note={empty} />
  );
}
