/** Picks one of the account's ready avatars; the others are listed but cannot be chosen yet. */
import { Anchor, Select, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Avatar } from '#client/types';
import { ProblemAlert } from '../../components/ProblemAlert';
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
    <div>
      <Select
        label={label}
        description={description}
        placeholder={avatars.isPending ? 'Loading avatars…' : 'Choose an avatar'}
        data={data}
        value={value}
        onChange={onChange}
        required={required}
        clearable={!required}
        searchable
        nothingFoundMessage="No avatar matches"
      />
      {none && (
        <Text size="xs" c="gray.7" mt={4}>
          No ready avatar yet: <Anchor component={Link} to="/avatars" size="xs" underline="always">make one on the Avatars page</Anchor>.
        </Text>
      )}
      <ProblemAlert error={avatars.error} />
    </div>
  );
}
