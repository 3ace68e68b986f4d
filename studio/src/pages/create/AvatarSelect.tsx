/** Picks one of the account's ready avatars; the others are listed but cannot be chosen yet. */
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { Avatar } from '#client/types';
import { QuerySelect } from '../../components/QuerySelect';
import { avatarOption } from '../avatars/avatar-name';
import { useAvatars } from './useAvatars';

interface Props {
  value: string | null;
  onChange: (id: string | null) => void;
  required?: boolean;
  description?: string;
  label?: string;
}

const STATUS_NOTE: Record<Avatar['status'], string> = { ready: '', processing: ' (still being made)', failed: ' (failed)' };

export function AvatarSelect({ value, onChange, required, description, label = 'Avatar' }: Props) {
  const avatars = useAvatars();
  const data = (avatars.data ?? []).map((avatar) => ({ value: String(avatar.id), label: avatarOption(avatar) + STATUS_NOTE[avatar.status], disabled: avatar.status !== 'ready' }));
  const none = avatars.isSuccess && !data.some((option) => !option.disabled);
  return (
    <QuerySelect
      query={avatars}
      loadingPlaceholder="Loading avatars…"
      label={label}
      description={description}
      placeholder="Choose an avatar"
      data={data}
      value={value}
      onChange={onChange}
      required={required}
      clearable={!required}
      nothingFoundMessage="No avatar matches"
      note={
        none && (
          <>
            No ready avatar yet: <Anchor component={Link} to="/avatars" size="xs" underline="always">make one on the Avatars page</Anchor>.
          </>
        )
      }
    />
  );
}
