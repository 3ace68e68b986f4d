/** Products: what the reaction videos show. A paginated list, a form to add one, a drawer to edit one. */
import { useState } from 'react';
import { Button, Group, Pagination, Paper, Stack, Text } from '@mantine/core';
import { FirstRunChecklist } from '../first-run/FirstRunChecklist';
import { useFirstRun } from '../first-run/useFirstRun';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { CreateProductModal } from './CreateProductModal';
import { ProductDrawer } from './ProductDrawer';
import { ProductsTable } from './ProductsTable';
import { PER_PAGE, useProducts } from './products-api';

/** An empty list: what a product is for, and the way to a first video (the sample product among it). */
function NoProductsYet({ onAddProduct }: { onAddProduct: () => void }) {
  const firstRun = useFirstRun();
  return (
    <Stack>
      <Paper withBorder p="lg">
        <Text>
          No products yet. A product is what your videos advertise: a name, a description hook ideas are written from, and a demo clip that plays after the reaction. Add one with “New product”, or try the sample product to make a
          first video now.
        </Text>
      </Paper>
      {firstRun.data && <FirstRunChecklist run={firstRun.data} jobs={firstRun.jobs} where="products" onAddProduct={onAddProduct} />}
    </Stack>
  );
}

export default function ProductsPage() {
  const [page, setPage] = useState(1);
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [openId, setOpenId] = useState<number>();
  const products = useProducts(page);
  const pages = Math.max(1, Math.ceil((products.data?.meta.total ?? 0) / PER_PAGE));
  return (
    <>
      <PageHeader
        title="Products"
        description="What your reaction videos show: a name, a description for hook ideas, and a demo clip."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            New product
          </Button>
        }
      />
      <Stack>
        <QueryStatus query={products} loading="Loading products" centered />
        {products.data && products.data.data.length === 0 && page === 1 && <NoProductsYet onAddProduct={openCreate} />}
        {products.data && products.data.data.length === 0 && page > 1 && <Text>Nothing left on this page; the products are on the pages before it.</Text>}
        {products.data && products.data.data.length > 0 && <ProductsTable products={products.data.data} onOpen={setOpenId} />}
        {(pages > 1 || page > 1) && (
          <Group justify="center">
            <Pagination total={Math.max(pages, page)} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} getItemProps={(item) => ({ 'aria-label': `Page ${item}` })} />
          </Group>
        )}
      </Stack>
      <CreateProductModal opened={creating} onClose={closeCreate} />
      <ProductDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </>
  );
}
