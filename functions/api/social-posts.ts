/**
 * Posts: a finished video handed to a connected scheduling provider, now, at a time, or as a draft.
 * The rules live in the use cases: publish-post (stored only once the provider accepted it),
 * refresh-posts (reads refresh what may still change, `stale: true` when the provider cannot be
 * asked) and delete-post (the provider's delete rule first, a 409 naming it).
 */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import type { NeedsOf } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam, pageMeta, pageParams } from '#http/params';
import { created, deleted, ok } from '#http/respond';
import { logger } from '#functions/logger';
import { createPostInput, postFieldsOfForm, postRequestOf, postView } from '#domain/social-post';
import { publishPost } from '#use-cases/publish-post';
import { listPosts as listRefreshedPosts, readPost, type RefreshedPost } from '#use-cases/refresh-posts';
import { deletePost as deletePostUseCase } from '#use-cases/delete-post';
import { answeredOnce } from './answered-once';

async function readFields(request: AuthenticatedRequest): Promise<Record<string, unknown>> {
  const body = await readRouteBody(request);
  return body.kind === 'form' ? postFieldsOfForm(body.fields) : body.fields;
}

const viewOf = ({ post, stale }: RefreshedPost) => postView(post, stale);

const createPost: Operation<NeedsOf<typeof publishPost>> = async (request) => {
  const deps = { ...request.deps, log: logger };
  const postRequest = postRequestOf(parseInput(createPostInput, await readFields(request), 'post'), deps.now());
  const post = await publishPost(deps, { accountId: request.principal.accountId, request: postRequest });
  return created(postView(post));
};

const getPost: Operation<NeedsOf<typeof readPost>> = async (request) => {
  const read = await readPost({ ...request.deps, log: logger }, { accountId: request.principal.accountId, postId: idParam(request) });
  return ok(viewOf(read));
};

const listPosts: Operation<NeedsOf<typeof listRefreshedPosts>> = async (request) => {
  const page = pageParams(request);
  const slice = await listRefreshedPosts({ ...request.deps, log: logger }, { accountId: request.principal.accountId, page: page.page, perPage: page.perPage });
  return ok(slice.items.map(viewOf), 200, pageMeta(page, slice.total));
};

const deletePost: Operation<NeedsOf<typeof deletePostUseCase>> = async (request) => {
  const post = await deletePostUseCase({ ...request.deps, log: logger }, { accountId: request.principal.accountId, postId: idParam(request) });
  return deleted(post.id);
};

export const socialPostOperations = { listPosts, createPost: answeredOnce(createPost), getPost, deletePost };
