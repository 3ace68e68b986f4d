/** One avatar: its portrait once ready (a placeholder while it is drawn), where it came from, delete. */
import { AspectRatio, Badge, Card, Center, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { IconPhotoOff } from '../../components/icons';
import { ConfirmButton } from '../../components/ConfirmButton';
import { useDeleteAvatar, type Avatar } from './avatars-api';

const nameOf = (avatar: Avatar) => (avatar.source === 'prompt' && avatar.prompt ? avatar.prompt : `Uploaded photo #${avatar.id}`);

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
        <Badge color={COLORS[avatar.status]} variant="dot">
          {avatar.status}
        </Badge>
        <ConfirmButton
          label="Delete"
          title="Delete this avatar?"
          message="The avatar and its portrait are deleted for good. Videos already made with it stay."
          onConfirm={() => remove.mutateAsync(avatar.id)}
        />
      </Group>
    </Card>
  );
}
