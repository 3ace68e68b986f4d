/**
 * Variants: several videos of the form as one batch, one per hook and, optionally, per avatar. Hooks
 * are added from the hook text above or from the hook ideas ("Add"); the summary says how many videos
 * that makes.
 */
import { ActionIcon, Button, Group, MultiSelect, Stack, Switch, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '../../components/icons';
import { counted } from '../../intake/text-count';
import { TEXT_LIMITS } from '../../intake/limits';
import { avatarOption } from '../avatars/avatar-name';
import { MAX_VARIANTS, variantPairs, withHook, type Variants } from './batch-request';
import { useAvatars } from './useAvatars';
import type { CreateForm } from './video-request';

interface Props {
  form: CreateForm;
  value: Variants;
  onChange: (next: Variants) => void;
}

function HookList({ value, onChange }: Omit<Props, 'form'>) {
  if (!value.hooks.length) return <Text size="sm" c="gray.7">No hooks yet: add the hook text above, or “Add” hook ideas.</Text>;
  return (
    <Stack component="ol" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Variant hooks">
      {value.hooks.map((hook, i) => (
        <Group component="li" key={hook} gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" c={counted(TEXT_LIMITS.hookText, hook).over ? 'red.8' : undefined}>
            {i + 1}. {hook}
          </Text>
          <ActionIcon variant="subtle" color="gray.7" aria-label={`Remove hook: ${hook}`} onClick={() => onChange({ ...value, hooks: value.hooks.filter((other) => other !== hook) })}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

export function VariantsFields({ form, value, onChange }: Props) {
  const avatars = useAvatars();
  const options = (avatars.data ?? []).filter((avatar) => avatar.status === 'ready').map((avatar) => ({ value: String(avatar.id), label: avatarOption(avatar) }));
  const count = variantPairs(form, value).length;
  return (
    <Stack gap="sm">
      <Switch
        label="Make variants"
        description="Several videos at once, one per hook (and avatar), to see which one works"
        checked={value.on}
        onChange={(event) => onChange({ ...value, on: event.currentTarget.checked })}
      />
      {value.on && (
        <>
          <HookList value={value} onChange={onChange} />
          <Group>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} disabled={!form.caption.text.trim() || value.hooks.includes(form.caption.text.trim())} onClick={() => onChange(withHook(value, form.caption.text))}>
              Add the hook text above
            </Button>
          </Group>
          {form.method !== 'reuse' && (
            <MultiSelect
              label="Avatars (optional)"
              description="Every hook with each avatar chosen; none: the avatar chosen above"
              data={options}
              value={value.avatarIds}
              onChange={(avatarIds) => onChange({ ...value, avatarIds })}
              searchable
              clearable
            />
          )}
          <Text size="sm" fw={500} c={count > MAX_VARIANTS ? 'red.8' : undefined} aria-live="polite">
            {count} video{count === 1 ? '' : 's'} in this batch{count > MAX_VARIANTS ? ` (at most ${MAX_VARIANTS})` : ''}
          </Text>
        </>
      )}
    </Stack>
  );
}
