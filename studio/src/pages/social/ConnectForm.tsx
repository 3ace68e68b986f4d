/**
 * Connecting a provider (or replacing its key): PUT /social/connections/{provider}. The key is checked
 * by the provider before it is stored, and never shown again.
 */
import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../components/notify';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SOCIAL_KEYS } from './social-queries';
import { PROVIDER_LABEL, type Provider } from './social-words';

interface Values {
  api_key: string;
  profile_key: string;
  x_api_key: string;
  x_api_secret: string;
}

const PRINTABLE = /^[\x21-\x7e]+$/;

export function ConnectForm({ provider, onDone }: { provider: Provider; onDone: () => void }) {
  const queries = useQueryClient();
  const form = useForm<Values>({
    initialValues: { api_key: '', profile_key: '', x_api_key: '', x_api_secret: '' },
    validate: {
      api_key: (value) => (value.length < 8 ? 'The key has at least 8 characters' : PRINTABLE.test(value) ? null : 'The key has no spaces or special characters'),
      // The X app is both parts or neither (docs/decisions.md, Social publishing).
      x_api_secret: (value, values) => (!!value !== !!values.x_api_key ? 'Give both the X app key and its secret, or neither' : null),
    },
  });
  const connect = useMutation({
    mutationFn: async (values: Values) => {
      const optional = provider === 'provider_a' ? { profile_key: values.profile_key || undefined, x_api_key: values.x_api_key || undefined, x_api_secret: values.x_api_secret || undefined } : {};
      return (await unwrap(api.PUT('/social/connections/{provider}', { params: { path: { provider } }, body: { api_key: values.api_key.trim(), ...optional } }))).data;
    },
    onSuccess: (connection) => {
      void queries.invalidateQueries({ queryKey: SOCIAL_KEYS.connections });
      notify(`${PROVIDER_LABEL[provider]} connected with ${connection.channels.length} channel${connection.channels.length === 1 ? '' : 's'}.`, 'green');
      onDone();
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => connect.mutate(values))}>
      <Stack>
        <ProblemAlert error={connect.error} />
        <Text size="sm" c="gray.7">
          Paste the API key from your {PROVIDER_LABEL[provider]} dashboard. {PROVIDER_LABEL[provider]} checks it before it is saved; it is stored encrypted and never shown again.
        </Text>
        <PasswordInput label="API key" withAsterisk autoComplete="off" data-autofocus {...form.getInputProps('api_key')} />
        {provider === 'provider_a' && (
          <>
            <PasswordInput label="Profile key" description="Optional: the profile whose channels to use, when your account has several." autoComplete="off" {...form.getInputProps('profile_key')} />
            <PasswordInput label="X app key" description="Optional: only needed to post to X, with its secret." autoComplete="off" {...form.getInputProps('x_api_key')} />
            <PasswordInput label="X app secret" autoComplete="off" {...form.getInputProps('x_api_secret')} />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={connect.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={connect.isPending}>
            Connect
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
