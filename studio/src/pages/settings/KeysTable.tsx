/** The account's keys by name and first characters, what they may do, when last used; revoke with a confirmation. */
import { Badge, Code, Group, Table, Text } from '@mantine/core';
import { ACTIONS, ResponsiveTable } from '../../components/ResponsiveTable';
import { ConfirmButton } from '../../components/ConfirmButton';
import { useRevokeKey, type ApiKey } from './keys-api';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never');

export function KeysTable({ keys }: { keys: ApiKey[] }) {
  const revoke = useRevokeKey();
  return (
    <ResponsiveTable columns={['Name', 'Key', 'Mode', 'Scopes', 'Last used', ACTIONS]} minWidth={640} verticalSpacing="sm" aria-label="API keys">
      {keys.map((key) => (
        <Table.Tr key={key.id}>
          <Table.Td data-label="Name">
            <Text size="sm" fw={500}>
              {key.name ?? 'Unnamed key'}
            </Text>
          </Table.Td>
          <Table.Td data-label="Key">
            <Code>{key.prefix}…</Code>
          </Table.Td>
          <Table.Td data-label="Mode">
            {/* A dot badge: its label keeps the body's text colour (a light teal or orange one reads under 4.5:1). */}
            <Badge variant="dot" color={key.mode === 'test' ? 'orange' : 'teal'} size="sm">
              {key.mode}
            </Badge>
          </Table.Td>
          <Table.Td data-label="Scopes">
            <Group gap={4}>
              {key.scopes.map((scope) => (
                <Badge key={scope} variant="outline" color="gray" size="sm">
                  {scope}
                </Badge>
              ))}
            </Group>
          </Table.Td>
          <Table.Td data-label="Last used">
            <Text size="sm">{when(key.last_used_at)}</Text>
          </Table.Td>
          <Table.Td>
            {key.revoked_at ? (
              <Badge color="gray" variant="light">
                Revoked
              </Badge>
            ) : (
              <ConfirmButton
                label="Revoke"
                title={`Revoke ${key.name ?? key.prefix}?`}
                message="Anything using this key stops working at its next request. This cannot be undone."
                onConfirm={() => revoke.mutateAsync(key.id)}
              />
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </ResponsiveTable>
  );
}
