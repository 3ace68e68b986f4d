/** Picks the product; only one whose demo video is ready can be used, and the others say why not. */
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { Product } from '#client/types';
import { QuerySelect } from '../../components/QuerySelect';
import { useProductsForPicker } from '../products/products-api';

const DEMO_NOTE: Record<NonNullable<Product['demo_video']>['status'], string> = {
  ready: '',
  processing: ' (demo still processing)',
  failed: ' (demo failed: upload it again)',
};

const note = (product: Product) => (product.demo_video ? DEMO_NOTE[product.demo_video.status] : ' (no demo video)');

interface Props {
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
}

export function ProductSelect({ value, onChange, error }: Props) {
  const products = useProductsForPicker();
  const list = products.data?.data ?? [];
  const data = list.map((product) => ({ value: String(product.id), label: product.name + note(product), disabled: product.demo_video?.status !== 'ready' }));
  const noneReady = products.isSuccess && !data.some((option) => !option.disabled);
  return (
    <QuerySelect
      query={products}
      loadingPlaceholder="Loading products…"
      label="Product"
      description="Only products whose demo video is ready can be used"
      placeholder="Choose a product"
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      required
      nothingFoundMessage="No product matches"
      note={
        noneReady &&
        (list.length === 0 ? (
          <>
            No products yet: <Anchor component={Link} to="/products" size="xs" underline="always">add one with its demo video</Anchor>, then come back.
          </>
        ) : (
          <>
            No product has a ready demo yet. A demo takes a moment to process after upload; <Anchor component={Link} to="/products" size="xs" underline="always">see Products</Anchor>.
          </>
        ))
      }
    />
  );
}
