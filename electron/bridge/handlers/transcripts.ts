// transcripts:… — what this client recorded for the active profile (the API keeps no history).
import type { DomainHandlers, HandlerContext } from './context';

export function transcriptsHandlers({ core }: HandlerContext): DomainHandlers<'transcripts'> {
  const profileId = () => core.profile().id;
  return {
    'transcripts:list': async ({ kind, limit, cursor }) => {
      const listing = await core.transcripts.list(profileId(), kind, { limit, cursor });
      return {
        summaries: listing.summaries,
        ...(listing.next ? { next: listing.next } : {}),
        total: listing.total,
        unreadable: listing.unreadable.map((e) => ({ file: e.file, message: e.message })),
      };
    },
    'transcripts:known': async ({ kind, ids }) => core.transcripts.known(profileId(), kind, ids),
    'transcripts:get': async ({ kind, id }) =>
      (await core.transcripts.get({ profileId: profileId(), kind, id })) ?? null,
    'transcripts:messages': async ({ kind, id, from, limit }) =>
      (await core.transcripts.messages({ profileId: profileId(), kind, id }, from, limit)) ?? null,
    'transcripts:remove': async ({ kind, id }) => ({
      removed: await core.transcripts.remove({ profileId: profileId(), kind, id }),
    }),
    'transcripts:search': async (search) => core.transcripts.search({ ...search, profileId: profileId() }),
  };
}
