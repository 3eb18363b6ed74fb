/**
 * The catalogue: brands (the groups competitions are shown under), site navigation, banners and pages.
 * What other modules may use: nothing; the site reads it over HTTP.
 */
export {};
