/** A new API key: a name to tell it apart, the scopes it may use, live or test. The key itself is shown once, after. */
import { Button, Checkbox, Group, Radio, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CountedTextInput } from '../../components/CountedText';
import { ProblemAlert } from '../../components/ProblemAlert';
import { TEXT_LIMITS } from '../../intake/limits';
import { overLimit } from '../../intake/text-count';
import { KEY_MODES, SCOPES, useCreateKey, type CreatedApiKey, type KeyMode, type Scope } from './keys-api';

export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const form = useForm<{ name: string; scopes: Scope[]; mode: KeyMode }>({
    initialValues: { name: '', scopes: ['read', 'write'], mode: 'live' },
    validate: {
      name: (name) => (name.trim() ? overLimit(TEXT_LIMITS.keyName, name, 'The name') : 'Name the key after where it will be used, e.g. "Zapier"'),
      scopes: (scopes) => (scopes.length ? null : 'Choose at least one scope'),
    },
  });
  const create = useCreateKey();
  const submit = form.onSubmit((values) =>
    create.mutate(
      { name: values.name.trim(), scopes: values.scopes, mode: values.mode },
      {
        onSuccess: (key) => {
          form.reset();
          onCreated(key);
        },
      },
    ),
  );
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <CountedTextInput label="Name" description="Where the key is used" placeholder="e.g. Zapier, my script" required limit={TEXT_LIMITS.keyName} {...form.getInputProps('name')} />
        <Checkbox.Group label="Scopes" {...form.getInputProps('scopes')}>
          <Group mt={6}>
            {SCOPES.map((scope) => (
              <Checkbox key={scope.value} value={scope.value} label={scope.label} description={scope.description} />
            ))}
          </Group>
        </Checkbox.Group>
        <Radio.Group label="Mode" {...form.getInputProps('mode')}>
          <Group mt={6}>
            {KEY_MODES.map((mode) => (
              <Radio key={mode.value} value={mode.value} label={mode.label} description={mode.description} />
            ))}
          </Group>
        </Radio.Group>
        <ProblemAlert error={create.error} />
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
