/** One avatar: its portrait once ready (a placeholder while it is drawn), where it came from, delete (a stock avatar is everyone's: it stays). */
import { AspectRatio, Badge, Card, Center, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { IconPhotoOff } from '../../components/icons';
import { ConfirmButton } from '../../components/ConfirmButton';
import { avatarName as nameOf } from './avatar-name';
import { useDeleteAvatar, type Avatar } from './avatars-api';

function Portrait({ avatar }: { avatar: Avatar }) {
  if (avatar.status === 'ready' && avatar.image_url) return <Image src={avatar.image_url} alt={`Avatar: ${nameOf(avatar)}`} fit="cover" />;
  return (
    <Center bg="gray.1">
      {avatar.status === 'processing' ? (
        <Stack align="center" gap={4}>
          <Loader size="sm" aria-hidden />
          <Text size="sm">Drawing the portrait…</Text>
        </Stack>
      ) : (
        <Stack align="center" gap={4} p="sm">
          <IconPhotoOff size={24} aria-hidden />
          <Text size="sm" ta="center">
            {avatar.error?.message ?? 'No portrait'}
          </Text>
        </Stack>
      )}
    </Center>
  );
}

const COLORS = { ready: 'green', processing: 'blue', failed: 'red' } as const;

export function AvatarCard({ avatar }: { avatar: Avatar }) {
  const remove = useDeleteAvatar();
  return (
    <Card withBorder padding="sm" component="article" aria-label={nameOf(avatar)}>
      <Card.Section>
        <AspectRatio ratio={1}>
          <Portrait avatar={avatar} />
        </AspectRatio>
      </Card.Section>
      <Text size="sm" mt="sm" lineClamp={2} title={nameOf(avatar)}>
        {nameOf(avatar)}
      </Text>
      <Group justify="space-between" mt="xs">
        <Group gap={6}>
          <Badge color={COLORS[avatar.status]} variant="dot">
            {avatar.status}
          </Badge>
          {avatar.stock && (
            <Badge color="violet" variant="light">
              Stock
            </Badge>
          )}
        </Group>
        {!avatar.stock && (
          <ConfirmButton
            label="Delete"
            title="Delete this avatar?"
            message="The avatar and its portrait are deleted for good. Videos already made with it stay."
            onConfirm={() => remove.mutateAsync(avatar.id)}
          />
        )}
      </Group>
    </Card>
  );
}
