/** Rename a product or change its description; the demo clip stays as it is. */
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useUpdateProduct, type Product } from './products-api';

export function EditProductForm({ product }: { product: Product }) {
  const form = useForm({
    initialValues: { name: product.name, description: product.description ?? '' },
    validate: { name: (name) => (name.trim() ? null : 'Give the product a name') },
  });
  const update = useUpdateProduct(product.id);
  const save = form.onSubmit((values) =>
    update.mutate(
      { name: values.name.trim(), description: values.description.trim() || null },
      {
        onSuccess: (saved) => {
          form.resetDirty({ name: saved.name, description: saved.description ?? '' });
          notifications.show({ color: 'green', title: 'Saved', message: saved.name });
        },
      },
    ),
  );
  return (
    <form onSubmit={save}>
      <Stack gap="sm">
        <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
        <ProblemAlert error={update.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
