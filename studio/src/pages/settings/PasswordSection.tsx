/** Change the password; the API signs out every other session of this person, so say so. */
import { Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';

interface Values {
  current: string;
  next: string;
  repeat: string;
}

const sessionsWord = (count: number) => (count === 1 ? '1 other session was' : `${count} other sessions were`);

export function PasswordSection() {
  const form = useForm<Values>({
    initialValues: { current: '', next: '', repeat: '' },
    validate: {
      current: (value) => (value ? null : 'Enter your current password'),
      next: (value, values) => (value.length === 0 ? 'Enter a new password' : value === values.current ? 'Choose a password different from the current one' : null),
      repeat: (value, values) => (value === values.next ? null : 'The two new passwords differ'),
    },
  });
  const change = useMutation({
    mutationFn: async (values: Values) => (await unwrap(api.POST('/auth/password', { body: { current_password: values.current, new_password: values.next } }))).data,
    onSuccess: (result) => {
      form.reset();
      notifications.show({
        color: 'green',
        title: 'Password changed',
        message: `${result.other_sessions_revoked ? sessionsWord(result.other_sessions_revoked) : 'Any other session was'} signed out; this one stays signed in.`,
        autoClose: 10_000,
      });
    },
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-title">
      <form onSubmit={form.onSubmit((values) => change.mutate(values))}>
        <Stack gap="sm" maw={420}>
          <Title order={3} id="password-title">
            Password
          </Title>
          <Text size="sm">Changing it signs you out everywhere else (other browsers and devices); this browser stays signed in.</Text>
          <PasswordInput label="Current password" autoComplete="current-password" required {...form.getInputProps('current')} />
          <PasswordInput label="New password" autoComplete="new-password" required {...form.getInputProps('next')} />
          <PasswordInput label="Confirm password" autoComplete="new-password" required {...form.getInputProps('repeat')} />
          <ProblemAlert error={change.error} action="change-password" />
          {change.isSuccess && (
            <Text size="sm" role="status">
              Password changed. {sessionsWord(change.data.other_sessions_revoked)} signed out.
            </Text>
          )}
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
