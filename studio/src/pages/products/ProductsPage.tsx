/** Products: what the reaction videos show. A paginated list, a form to add one, a drawer to edit one. */
import { useState } from 'react';
import { Button, Center, Group, Loader, Pagination, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { CreateProductModal } from './CreateProductModal';
import { ProductDrawer } from './ProductDrawer';
import { ProductsTable } from './ProductsTable';
import { PER_PAGE, useProducts } from './products-api';

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
        <ProblemAlert error={products.error} />
        {products.isPending && (
          <Center p="xl">
            <Loader aria-label="Loading products" />
          </Center>
        )}
        {products.data && products.data.data.length === 0 && page === 1 && (
          <Paper withBorder p="xl">
            <Text ta="center">No products yet. Add one with “New product” — a name is enough, a demo video makes better videos.</Text>
          </Paper>
        )}
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
