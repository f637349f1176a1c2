// Query keys that more than one feature reads or writes, so both name the same cache entry. The
// forms list (features/forms) follows a form's CAPTCHA saved in its settings (features/form-settings);
// its rows are the generated Tables<'forms'>. Retention rules are read under one root by the form
// settings (one form's rule) and the inbox (every rule, features/messages), so a save refreshes both.
export const formsListKey = () => ['forms', 'list'] as const;
export const retentionRootKey = ['retention'] as const;
