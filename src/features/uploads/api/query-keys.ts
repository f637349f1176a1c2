// Query keys of the uploads feature, in one place: a form's upload settings, a file's thumbnail
// address and the owner's storage use.
export const uploadsKeys = {
  all: ['uploads'] as const,
  settings: (formId: string) => ['uploads', 'settings', formId] as const,
  thumbnail: (objectKey: string) => ['uploads', 'thumbnail', objectKey] as const,
  storageUse: () => ['uploads', 'storage-use'] as const,
};
