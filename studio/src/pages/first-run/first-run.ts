/**
 * A new account's first steps to a video, each ticked from what the API says the account has: a
 * product whose demo is ready, a ready avatar (the stock ones count), and a video. Pure, so the
 * checklist on New video and Products reads the same steps and a test can hold them.
 */
import type { Avatar, Job, Product } from '#client/types';

type StepKey = 'product' | 'avatar' | 'video';
/** `waiting`: begun and moving on its own (a demo being prepared, a job running). */
type StepState = 'todo' | 'waiting' | 'done';

export interface FirstRunStep {
  key: StepKey;
  title: string;
  state: StepState;
  /** What the step stands at, or what to do, in a sentence. */
  detail: string;
}

export interface FirstRunFacts {
  /** The account's products (the first page is enough: one ready demo ticks the step). */
  products: Pick<Product, 'id' | 'name' | 'demo_video'>[];
  avatars: Pick<Avatar, 'status' | 'stock'>[];
  /** The newest jobs, newest first. */
  jobs: Pick<Job, 'id' | 'status'>[];
  /** Finished videos the account has. */
  videos: number;
}

export interface FirstRun {
  steps: FirstRunStep[];
  /** Every step done: the checklist has nothing left to say. */
  complete: boolean;
  /** A product whose demo is ready, to start a video from; null while there is none. */
  readyProductId: number | null;
}

function productStep(products: FirstRunFacts['products']): FirstRunStep {
  const title = 'Add a product';
  const ready = products.find((product) => product.demo_video?.status === 'ready');
  if (ready) return { key: 'product', title, state: 'done', detail: `${ready.name} has its demo ready.` };
  const processing = products.find((product) => product.demo_video?.status === 'processing');
  if (processing) return { key: 'product', title, state: 'waiting', detail: `${processing.name}: its demo is being prepared; this ticks itself when it is ready.` };
  if (products.length > 0) return { key: 'product', title, state: 'todo', detail: 'A video shows the product’s demo clip: add a product with a demo video, or try the sample.' };
  return { key: 'product', title, state: 'todo', detail: 'A name and a short demo clip of it in use. No clip at hand? Try the sample product.' };
}

function avatarStep(avatars: FirstRunFacts['avatars']): FirstRunStep {
  const title = 'Pick or make an avatar';
  const own = avatars.filter((avatar) => !avatar.stock && avatar.status === 'ready').length;
  const stock = avatars.filter((avatar) => avatar.stock && avatar.status === 'ready').length;
  if (own > 0) return { key: 'avatar', title, state: 'done', detail: `You have ${own} avatar${own === 1 ? '' : 's'} of your own${stock ? `, and ${stock} stock ones` : ''}.` };
  if (stock > 0) return { key: 'avatar', title, state: 'done', detail: `${stock} stock avatars are ready to pick on New video; make your own on the Avatars page.` };
  if (avatars.some((avatar) => avatar.status === 'processing')) return { key: 'avatar', title, state: 'waiting', detail: 'Your avatar’s portrait is being drawn.' };
  return { key: 'avatar', title, state: 'todo', detail: 'Describe a person or upload a photo on the Avatars page, or let the prompt draw one.' };
}

function videoStep(jobs: FirstRunFacts['jobs'], videos: number): FirstRunStep {
  const title = 'Make a video';
  if (videos > 0) return { key: 'video', title, state: 'done', detail: `You have ${videos} finished video${videos === 1 ? '' : 's'}.` };
  const running = jobs.find((job) => job.status === 'queued' || job.status === 'processing');
  if (running) return { key: 'video', title, state: 'waiting', detail: 'Your first video is being made; you are told when it is ready.' };
  if (jobs.some((job) => job.status === 'preview_ready')) return { key: 'video', title, state: 'waiting', detail: 'A preview waits for you: approve it to finish the video.' };
  return { key: 'video', title, state: 'todo', detail: 'Choose the product, describe the reaction and write a hook: the video takes a minute or two.' };
}

export function firstRun(facts: FirstRunFacts): FirstRun {
  const steps = [productStep(facts.products), avatarStep(facts.avatars), videoStep(facts.jobs, facts.videos)];
  const ready = facts.products.find((product) => product.demo_video?.status === 'ready');
  return { steps, complete: steps.every((step) => step.state === 'done'), readyProductId: ready?.id ?? null };
}

/** The job a waiting video step points at: the newest running one, else the newest preview to review. */
export function jobToFollow(jobs: FirstRunFacts['jobs']): number | null {
  return (jobs.find((job) => job.status === 'queued' || job.status === 'processing') ?? jobs.find((job) => job.status === 'preview_ready'))?.id ?? null;
}
