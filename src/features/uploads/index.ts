// Public face of the uploads feature: a form's file upload settings (the Edit dialog's Files tab)
// and a message's files with their thumbnails and downloads (the inbox's message drawer), which
// the app composes into the forms and messages features.
export { FilesSection } from './components/files-section';
export { MessageFiles } from './components/message-files';
export { StorageUse } from './components/storage-use';
