export default {
  errors: {
    tokenTimeout: 'Your session has expired (ds token timeout). Please sign in again.',
    replaced: 'This account signed in on another device.',
  },
  ok: 'OK',
  cancel: 'Cancel',
  range: {
    start: 'Start time',
    end: 'End time',
    required: 'Choose a start and an end time',
    order: 'The start time is after the end time',
    tooLong: 'The period may be at most 31 days',
    crossMonth: 'Cross-month queries are not supported',
  },
};
