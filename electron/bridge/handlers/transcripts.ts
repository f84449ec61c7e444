// transcripts:… — what this client recorded for the active profile (the API keeps no history).
import type { DomainHandlers, HandlerContext } from './context';

export function transcriptsHandlers({ core }: HandlerContext): DomainHandlers<'transcripts'> {
  const profileId = () => core.profile().id;
  return {
    'transcripts:list': async ({ kind }) => {
      const listing = await core.transcripts.list(profileId(), kind);
      return {
        summaries: listing.summaries,
        unreadable: listing.unreadable.map((e) => ({ file: e.file, message: e.message })),
      };
    },
    'transcripts:get': async ({ kind, id }) =>
      (await core.transcripts.get({ profileId: profileId(), kind, id })) ?? null,
    'transcripts:remove': async ({ kind, id }) => ({
      removed: await core.transcripts.remove({ profileId: profileId(), kind, id }),
    }),
  };
}
