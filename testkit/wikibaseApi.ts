/**
 * What a Debian MediaWiki needs to hold Wikidata entity revisions for tests (docs/ARCHITECTURE.md §16):
 * the `wikibase-item` content model handled by MediaWiki's own JSON content handler (Wikibase itself is
 * not packaged), and a `wbgetentities` API module answering, as Wikibase does, the English labels and
 * aliases of the entities the wiki holds as pages titled by their ids. The module is the one part that
 * stands in for Wikibase; everything around it (api.php, maxlag, the client's limits) is MediaWiki's.
 *
 * `$wgContentHandlers['wikibase-item'] = 'JsonContentHandler'` alone imports the revisions, but as
 * model `json`: MediaWiki 1.39's JsonContent always names its model `json` (JsonContentHandler creates
 * its content with the text alone). So the handler here is JsonContentHandler with a content class
 * that keeps the model it was registered for, and the API reports `wikibase-item` as Wikidata's does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MODULE = String.raw`<?php
class WikideltaEntityContent extends JsonContent {
  public function __construct( $text, $modelId = 'wikibase-item' ) {
    parent::__construct( $text, $modelId );
  }
}

class WikideltaEntityContentHandler extends JsonContentHandler {
  public function __construct( $modelId = 'wikibase-item' ) {
    parent::__construct( $modelId );
  }
  protected function getContentClass() {
    return WikideltaEntityContent::class;
  }
}

class WikideltaTestGetEntities extends ApiBase {
  public function execute() {
    $params = $this->extractRequestParams();
    $services = MediaWiki\MediaWikiServices::getInstance();
    $entities = [];
    foreach ( $params['ids'] as $id ) {
      $title = Title::newFromText( $id );
      $record = $title ? $services->getRevisionLookup()->getRevisionByTitle( $title ) : null;
      $content = $record ? $record->getContent( MediaWiki\Revision\SlotRecord::MAIN ) : null;
      $entity = $content ? json_decode( $content->getText(), true ) : null;
      if ( !is_array( $entity ) ) {
        $entities[$id] = [ 'id' => $id, 'missing' => '' ];
        continue;
      }
      $answer = [ 'type' => $entity['type'] ?? 'item', 'id' => $id, 'labels' => (object)[], 'aliases' => (object)[] ];
      if ( isset( $entity['labels']['en'] ) ) $answer['labels'] = [ 'en' => $entity['labels']['en'] ];
      if ( isset( $entity['aliases']['en'] ) ) $answer['aliases'] = [ 'en' => $entity['aliases']['en'] ];
      $entities[$id] = $answer;
    }
    $this->getResult()->addValue( null, 'entities', $entities );
    $this->getResult()->addValue( null, 'success', 1 );
  }
  public function getAllowedParams() {
    return [
      'ids' => [ ApiBase::PARAM_ISMULTI => true, ApiBase::PARAM_REQUIRED => true ],
      'props' => [ ApiBase::PARAM_ISMULTI => true ],
      'languages' => [ ApiBase::PARAM_ISMULTI => true ],
    ];
  }
}
`;

/** LocalSettings.php lines for a wiki of entity revisions, with the wbgetentities module written beside them. */
export function wikibaseItemSettings(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wikidelta-wikibase-'));
  const module = join(dir, 'WikideltaWikibase.php');
  writeFileSync(module, MODULE);
  const classes = ['WikideltaEntityContent', 'WikideltaEntityContentHandler', 'WikideltaTestGetEntities'];
  return `
# wikidelta tests: Wikidata entity revisions (content model wikibase-item) stored as JSON.
${classes.map((name) => `$wgAutoloadClasses['${name}'] = ${JSON.stringify(module)};`).join('\n')}
$wgContentHandlers['wikibase-item'] = 'WikideltaEntityContentHandler';
$wgAPIModules['wbgetentities'] = 'WikideltaTestGetEntities';
`;
}
