// German strings of the planner (the keys and their meaning: strings.ts).
import type { PlannerStrings } from './strings.js';

export const de: PlannerStrings = {
  locale: 'de-DE',
  newParts: { plan: 'Neuer Plan', block: 'Neuer Block', group: 'Neue Gruppe', breakout: 'Neuer Breakout', blockType: 'Neue Kategorie', person: 'Neue Person' },

  done: 'Fertig',
  editorLabel: 'Plan-Editor',

  toolbarLabel: 'Bearbeiten',
  moreActions: 'Mehr',
  undo: 'Rückgängig',
  redo: 'Wiederholen',
  addBlock: 'Block hinzufügen',
  addBlockShort: '+ Block',
  addGroup: 'Gruppe hinzufügen',
  addBreakout: 'Breakout hinzufügen',
  addInside: (container) => `Neue Punkte kommen in „${container}“.`,
  insertMethod: 'Methode einfügen',
  methodsTitle: 'Methoden zum Einfügen',
  insert: 'Einfügen',
  insertMethodNamed: (title) => `Einfügen: ${title}`,
  methodInserted: (title) => `„${title}“ eingefügt, die Quelle steht am Ende der Beschreibung.`,
  libraryLoading: 'Die Methoden werden geladen …',
  libraryFailed: 'Die Methoden ließen sich nicht laden. Prüfen Sie die Verbindung und versuchen Sie es noch einmal.',
  license: 'Lizenz',
  closeDialog: 'Schließen',
  importJson: 'JSON-Datei öffnen',
  exportJson: 'JSON herunterladen',
  imported: (fileName) => `${fileName} geöffnet.`,
  importFailed: (fileName) => `${fileName} lässt sich nicht als Plan öffnen:`,
  exported: (fileName) => `Gespeichert als ${fileName}.`,

  workshopSection: 'Workshop',
  workshopTitle: 'Workshop-Titel',
  workshopDescription: 'Workshop-Beschreibung',
  date: 'Datum',
  startTime: 'Beginn',
  totalAgainstDay: (total, range) => `Insgesamt ${total} (${range})`,
  totalOnly: (total) => `Insgesamt ${total}`,

  categoriesSection: 'Kategorien',
  categoryName: 'Name der Kategorie',
  categoryColor: 'Farbe',
  addCategory: 'Kategorie hinzufügen',
  removeCategory: (name) => `Kategorie ${name} entfernen`,
  facilitatorOnly: 'Nur für die Moderation (nicht in der Teilnehmer-Version)',
  peopleSection: 'Personen',
  personName: 'Name',
  personRole: 'Rolle',
  addPerson: 'Person hinzufügen',
  removePerson: (name) => `${name} entfernen`,

  agendaSection: 'Ablauf',
  emptyAgenda: 'Noch keine Punkte: Fügen Sie einen Block, eine Gruppe oder einen Breakout hinzu.',
  kind: { block: 'Block', group: 'Gruppe', breakout: 'Breakout' },
  itemHeading: (kind, title) => `${kind}: ${title}`,
  title: 'Titel',
  duration: 'Dauer (Min.)',
  description: 'Beschreibung',
  notes: 'Notizen',
  material: 'Material',
  fixedStartTime: 'Feste Startzeit',
  category: 'Kategorie',
  noCategory: 'Keine',
  people: 'Personen',
  lanes: 'Parallele Breakouts',
  sameInAllBreakouts: 'In allen Breakouts gleich',
  laneOfChild: 'Im Breakout',
  laneName: (number) => `Breakout ${number}`,
  lanePeople: (lane) => `Personen in ${lane}`,
  unknownPerson: (id) => `${id} (nicht in der Personenliste)`,
  overrun: (duration) => `Die Punkte darin dauern ${duration} länger als diese Gruppe.`,
  removeUnknown: (id) => `${id} entfernen`,
  timeRange: (range) => range,
  moveUp: (title) => `Nach oben: ${title}`,
  moveDown: (title) => `Nach unten: ${title}`,
  moveTo: (title) => `„${title}“ verschieben nach`,
  moveToTopLevel: 'Oberste Ebene',
  moveButton: (title) => `Verschieben: ${title}`,
  duplicate: (title) => `Duplizieren: ${title}`,
  delete: (title) => `Löschen: ${title}`,
  details: (title) => `Details: ${title}`,
  dragHandle: (title) => `Ziehen zum Verschieben: ${title}`,
  selectItem: (title) => `Auswählen: ${title}`,
  itemId: 'ID',
  removeField: (path) => `Feld ${path} entfernen`,

  linkLength: (characters) => `Link: ${characters} Zeichen`,
  limitNames: {
    items: 'Punkte',
    jsonBytes: 'Bytes JSON',
    payloadChars: 'Zeichen Link-Daten',
    outputBytes: 'Bytes entpackter Text',
    dictionaryEntries: 'Einträge im Kompressionswörterbuch',
    contentBytes: 'Bytes im Kompressionswörterbuch',
  },
  nearLimit: (limit, used, max) => `Nahe an der Grenze: ${used} von ${max} ${limit}.`,
  overLimit: (limit, used, max) => `Über der Grenze: ${used} von höchstens ${max} ${limit}.`,
  problemsTitle: (count) => (count === 1 ? '1 Problem zu beheben' : `${count} Probleme zu beheben`),
  problemsExplained: 'Bis sie behoben sind, behält der Link in der Adresszeile den letzten gültigen Plan.',
  linkUpToDate: 'Der Link in der Adresszeile enthält diesen Plan.',
  linkBehind: (field) => `Der Link behält den letzten gültigen Plan, bis ${field} korrigiert ist.`,
  fieldOf: (field, title) => `${field} von „${title}“`,
  invalidOnDone: (field) => `${field} ist ungültig, deshalb enthält der Link noch den letzten gültigen Plan. Korrigieren Sie das Feld, oder verwerfen Sie Ihre ungültigen Änderungen und verlassen Sie den Editor mit diesem Plan.`,
  discardInvalid: 'Meine ungültigen Änderungen verwerfen',
  keepEditing: 'Weiter bearbeiten',
  changeBroke: 'Durch diese Änderung stimmt nicht mehr:',
  table: {
    open: 'Tabelle importieren',
    title: 'Tabelle importieren',
    pasteLabel: 'Tabelle hier einfügen, mit Kopfzeile (aus Excel, Google Sheets oder LibreOffice)',
    openFile: 'CSV-Datei öffnen',
    hint: 'Spalten werden an ihrer Überschrift erkannt, deutsch oder englisch: Titel, Dauer (Min.), Startzeit, Beschreibung, Notizen, Material, Personen, Kategorie, Breakout. Eine Zeile, die mit „↳“ beginnt, gehört in die Zeile darüber.',
    modeLegend: 'Die Einträge der Tabelle',
    replace: 'ersetzen den Ablauf',
    append: 'kommen ans Ende des Ablaufs',
    columns: (list) => `Erkannte Spalten: ${list}.`,
    ignored: (list) => `Nicht übernommen: ${list}.`,
    previewCaption: (items) => (items === 1 ? '1 Eintrag aus der Tabelle' : `${items} Einträge aus der Tabelle`),
    more: (rows) => `und ${rows} weitere`,
    headers: { row: 'Zeile', time: 'Zeit', title: 'Titel', duration: 'Dauer' },
    problemsTitle: (count) => (count === 1 ? '1 Problem: Nichts wird importiert, bis es behoben ist' : `${count} Probleme: Nichts wird importiert, bis sie behoben sind`),
    moreProblems: (count) => `und ${count} weitere`,
    applyReplace: (items) => `Ablauf durch ${items === 1 ? '1 Eintrag' : `${items} Einträge`} ersetzen`,
    applyAppend: (items) => `${items === 1 ? '1 Eintrag' : `${items} Einträge`} ans Ende setzen`,
    imported: (items, source) => `${items === 1 ? '1 Eintrag' : `${items} Einträge`} aus ${source} übernommen. „Rückgängig“ nimmt ${items === 1 ? 'ihn' : 'sie'} wieder heraus.`,
    pasted: 'der eingefügten Tabelle',
    row: (row) => `Zeile ${row}`,
    problem(problem, number) {
      switch (problem.kind) {
        case 'tooLarge': return `Die Tabelle hat ${number(problem.size)} Zeichen; ein Plan fasst höchstens ${number(problem.limit)}, daher wurde sie nicht gelesen.`;
        case 'notUtf8': return 'Die Datei ist kein UTF-8-Text. Speichern Sie sie als „CSV UTF-8“ (Excel: Speichern unter → CSV UTF-8) und öffnen Sie sie noch einmal.';
        case 'empty': return 'Die Tabelle hat unter der Kopfzeile keine Zeilen.';
        case 'tooManyRows': return `Die Tabelle hat ${number(problem.rows)} Zeilen; ein Plan fasst höchstens ${number(problem.limit)} Einträge.`;
        case 'noTitleColumn': return `Keine Spalte heißt Titel (oder Title, Thema, Topic …): Die erste Zeile muss die Spalten benennen. Sie lautet: ${problem.headers.join(', ') || 'leer'}.`;
        case 'formula': return `Zeile ${problem.row}, ${problem.column}: „${problem.text}“ ist eine Formel. Kopieren Sie die Werte (Inhalte einfügen → Werte) oder nehmen Sie das „=“ heraus.`;
        case 'replacement': return `Zeile ${problem.row}, ${problem.column}: „${problem.text}“ enthält „\uFFFD“, wurde also in einer anderen Kodierung gelesen. Speichern Sie die Datei als „CSV UTF-8“ und öffnen Sie sie noch einmal.`;
        case 'mojibake': return `Zeile ${problem.row}, ${problem.column}: „${problem.text}“ sieht nach Text in zwei Kodierungen aus (etwa „Ã¤“ für „ä“). Speichern Sie die Datei als „CSV UTF-8“ und öffnen Sie sie noch einmal.`;
        case 'duration': return `Zeile ${problem.row}, ${problem.column}: „${problem.text}“ ist keine Dauer. Schreiben Sie Minuten (30) oder Stunden und Minuten (1:30, 1,5 h).`;
        case 'time': return `Zeile ${problem.row}, ${problem.column}: „${problem.text}“ ist keine Uhrzeit. Schreiben Sie sie als 09:30.`;
        case 'lane': return `Zeile ${problem.row}, ${problem.column}: „${problem.text}“ ist keine Breakout-Nummer. Schreiben Sie 1 bis 10 oder „alle“.`;
        case 'noTitle': return `Zeile ${problem.row} hat keinen Titel.`;
        case 'durationMissing': return `Zeile ${problem.row} hat keine Dauer und in der nächsten Zeile keine Startzeit, aus der sie sich ergibt.`;
        case 'tooDeep': return `Zeile ${problem.row} liegt drei Ebenen tief (↳ ↳ ↳); ein Plan hat Gruppen, darin Breakouts und Blöcke, nicht tiefer.`;
        case 'orphan': return `Zeile ${problem.row} beginnt mit „↳“, aber keine Zeile darüber kann sie aufnehmen.`;
        case 'breakoutNesting': return `Zeile ${problem.row} liegt in einem Eintrag eines Breakouts; ein Breakout enthält nur Blöcke.`;
      }
    },
  },
};
