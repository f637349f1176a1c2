// The blog feature's public surface: the two pages the router mounts.
export { BlogListPage } from './components/blog-list-page';
export { BlogPostPage } from './components/blog-post-page';
