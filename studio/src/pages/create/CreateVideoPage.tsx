/**
 * New video. An account that has not made a video yet sees the first-run checklist above the form;
 * one with no product whose demo is ready sees only the checklist and what to do, since the form
 * cannot make anything yet. A sample product made from here is chosen in the form once it is ready.
 */
import { Box, Center, Loader } from '@mantine/core';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { FirstRunChecklist } from '../first-run/FirstRunChecklist';
import { useFirstRun } from '../first-run/useFirstRun';
import { CreateVideoForm } from './CreateVideoForm';

export default function CreateVideoPage() {
  const firstRun = useFirstRun();
  const navigate = useNavigate();
  if (firstRun.pending) {
    return (
      <>
        <PageHeader title="New video" />
        <Center p="xl">
          <Loader aria-label="Loading" />
        </Center>
      </>
    );
  }
  const checklist =
    firstRun.data && !firstRun.data.complete ? (
      // The address names the sample: the form, shown once its demo is ready, starts with it chosen.
      <FirstRunChecklist run={firstRun.data} jobs={firstRun.jobs} where="create" onSample={(product) => void navigate(`/create?product_id=${product.id}`, { replace: true })} />
    ) : null;
  if (firstRun.data?.readyProductId === null) {
    return (
      <>
        <PageHeader title="New video" description="A video shows a product's demo clip after the reaction, so it starts with a product: add yours, or try the sample product to see how it works." />
        {checklist}
      </>
    );
  }
  return <CreateVideoForm above={checklist && <Box mb="md">{checklist}</Box>} />;
}
