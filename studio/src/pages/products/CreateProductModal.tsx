/**
 * A new product: name, description and an optional demo clip. The clip goes straight to storage with a
 * progress bar first; the product is created once it is there, and its demo is then processed in the
 * background (the list shows it as "processing" until "ready").
 */
import { Button, FileInput, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconVideo } from '../../components/icons';
import { useMutation } from '@tanstack/react-query';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UploadProgress, useUpload } from '../../api/upload';
import { useCreateProduct } from './products-api';

interface Values {
  name: string;
  description: string;
  demo: File | null;
}

export function CreateProductModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const form = useForm<Values>({
    initialValues: { name: '', description: '', demo: null },
    validate: { name: (name) => (name.trim() ? null : 'Give the product a name') },
  });
  const demo = useUpload('demo_video');
  const create = useCreateProduct();
  const submit = useMutation({
    mutationFn: async (values: Values) => {
      const upload = values.demo ? await demo.upload(values.demo) : undefined;
      return create.mutateAsync({ name: values.name.trim(), description: values.description.trim(), demoUploadId: upload?.id });
    },
    onSuccess: (product) => {
      notifications.show({ color: 'green', title: 'Product created', message: product.demo_video ? 'Its demo is being processed; the list shows when it is ready.' : product.name });
      close();
    },
  });
  function close() {
    demo.cancel();
    submit.reset();
    form.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title="New product" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={form.onSubmit((values) => submit.mutate(values))}>
        <Stack>
          <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
          <Textarea label="Description" description="What it is and who it is for; hook ideas draw on it." autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
          <FileInput
            label="Demo video"
            description="Optional. A short vertical (portrait) clip of the product in use, MP4, MOV or WebM; your reaction videos show it."
            accept="video/*"
            fileInputProps={{ 'aria-label': 'Demo video file' }}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
            leftSection={<IconVideo size={16} />}
            {...form.getInputProps('demo')}
          />
          <UploadProgress value={demo.progress} label="Uploading demo video" />
          <ProblemAlert error={submit.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={submit.isPending}>
              Create product
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
