/**
 * "Try a sample product": POST /products/sample makes a product from the service's own demo clip (a
 * fictional habit tracker), so a first video needs nothing of the person's own. The checklist then
 * shows its demo being prepared until it is ready.
 */
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Product } from '#client/types';
import { IconSparkles } from '../../components/icons';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useCreateSampleProduct } from '../products/products-api';

export function SampleProductButton({ onCreated }: { onCreated?: (product: Product) => void }) {
  const sample = useCreateSampleProduct();
  return (
    <>
      <Button
        variant="filled"
        leftSection={<IconSparkles size={16} />}
        loading={sample.isPending}
        onClick={() =>
          sample.mutate(undefined, {
            onSuccess: (product) => {
              notifications.show({ color: 'green', title: 'Sample product added', message: product.demo_video?.status === 'ready' ? `${product.name}: its demo is ready.` : `${product.name}: its demo is being prepared.` });
              onCreated?.(product);
            },
          })
        }
      >
        Try a sample product
      </Button>
      <ProblemAlert error={sample.error} onClose={sample.reset} />
    </>
  );
}
