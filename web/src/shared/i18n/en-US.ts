export default {
  errors: {
    tokenTimeout: 'Your session has expired (ds token timeout). Please sign in again.',
    replaced: 'This account signed in on another device.',
  },
  ok: 'OK',
  cancel: 'Cancel',
};
