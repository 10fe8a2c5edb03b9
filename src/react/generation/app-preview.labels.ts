/** Texts of `AppPreview`. */
export interface AppPreviewLabels {
  regionLabel: string;
  frameTitle: string;
  empty: string;
  unsafeUrl: string;
  reload: string;
  openInNewTab: string;
  devicesLabel: string;
  mobile: string;
  tablet: string;
  desktop: string;
}

/** The default (English) texts of `AppPreview`. */
export const defaultAppPreviewLabels: AppPreviewLabels = {
  regionLabel: 'App preview',
  frameTitle: 'Preview of the generated app',
  empty: 'The preview appears here when the app is ready.',
  unsafeUrl: 'The app address is not a web address, so it cannot be previewed.',
  reload: 'Reload',
  openInNewTab: 'Open in a new tab',
  devicesLabel: 'Preview width',
  mobile: 'Mobile',
  tablet: 'Tablet',
  desktop: 'Desktop',
};
