/**
 * One product beside the list: its demo (playable once ready, live while processing), hook ideas, the
 * edit form and delete. It reads the product on its own so the demo link is fresh.
 */
import { Divider, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { HookIdeas } from '../../components/HookIdeas';
import { QueryStatus } from '../../components/QueryStatus';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DemoStatus } from './DemoStatus';
import { EditProductForm } from './EditProductForm';
import { useDeleteProduct, useProduct, type Product } from './products-api';

function DemoSection({ demo }: { demo: Product['demo_video'] }) {
  if (!demo) return <Text size="sm">No demo clip. Create a new product with a demo video to show it in reaction videos.</Text>;
  if (demo.status === 'processing') return <Text size="sm">The demo is being prepared; this updates by itself.</Text>;
  if (demo.status === 'failed') return <Text size="sm">{demo.error?.message ?? 'The demo could not be processed.'} Create the product again with another file.</Text>;
  if (!demo.url) return null;
  return (
    // Demos are vertical: cap the height so the controls below stay in view.
    <video src={demo.url} controls preload="metadata" aria-label="Demo video" style={{ maxHeight: 420, maxWidth: '100%', alignSelf: 'flex-start' }} />
  );
}

async function copyHook(text: string) {
  await navigator.clipboard.writeText(text).then(
    () => notifications.show({ title: 'Hook copied', message: text }),
    () => notifications.show({ color: 'red', title: 'Could not copy', message: text }),
  );
}

export function ProductDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const product = useProduct(id);
  const remove = useDeleteProduct();
  return (
    <Drawer opened={id !== undefined} onClose={onClose} position="right" size="lg" title={product.data?.name ?? 'Product'} closeButtonProps={{ 'aria-label': 'Close' }}>
      <QueryStatus query={product} loading="Loading product" />
      {product.data && (
        <Stack>
          <Group justify="space-between">
            <Title order={3} size="h5">
              Demo
            </Title>
            <DemoStatus demo={product.data.demo_video} />
          </Group>
          <DemoSection demo={product.data.demo_video} />
          <Divider />
          <Title order={3} size="h5">
            Hook ideas
          </Title>
          <HookIdeas productId={product.data.id} onPick={(text) => void copyHook(text)} pickLabel="Copy" />
          <Divider />
          <Title order={3} size="h5">
            Details
          </Title>
          <EditProductForm key={product.data.id} product={product.data} />
          <Divider />
          <Group justify="flex-end">
            <ConfirmButton
              label="Delete"
              title={`Delete ${product.data.name}?`}
              message="The product and its demo clip are deleted for good. Videos already made stay."
              onConfirm={() => remove.mutateAsync(product.data.id)}
              onDone={onClose}
            />
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
