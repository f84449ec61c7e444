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
    'transcripts:storage': async () => ({
      sizes: await core.history.sizes(),
      conversations: (await core.transcripts.list(profileId(), undefined, { limit: 1 })).total,
      agents: await core.transcripts.agents(profileId()),
      retention: core.history.retention(),
    }),
    'transcripts:count': async ({ agent }) => core.transcripts.count({ profileId: profileId(), agent }),
    'transcripts:removeAll': async ({ agent }) => ({
      removed: await core.transcripts.removeAll({ profileId: profileId(), agent }),
    }),
    'transcripts:setRetention': async (retention) => ({
      removed: await core.history.setRetention(retention),
    }),
  };
}
