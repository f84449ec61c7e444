// reviews:… — labels, reviews, the queue and the export of the active profile's recorded history.
import type { DomainHandlers, HandlerContext } from './context';

export function reviewsHandlers({ core }: HandlerContext): DomainHandlers<'reviews'> {
  const reviews = () => core.transcripts.reviews;
  const profileId = () => core.profile().id;
  return {
    'reviews:labels': async () => reviews().labels(),
    'reviews:saveLabel': async (label) => reviews().saveLabel(label),
    'reviews:removeLabel': async ({ id }) => reviews().removeLabel(id),
    'reviews:of': async ({ kind, id }) => reviews().of({ profileId: profileId(), kind, id }),
    'reviews:save': async (input) => reviews().save(profileId(), input) ?? null,
    'reviews:remove': async (target) => ({ removed: reviews().remove(profileId(), target) }),
    'reviews:queue': async (query) => reviews().queue({ ...query, profileId: profileId() }),
    'reviews:export': async ({ format, ...query }) =>
      reviews().export({ ...query, profileId: profileId() }, format),
  };
}
