-- 0004: chunks cite the file's own lines. For a file whose extracted text is not the file's
-- own (HTML, where text is a third of the lines), byte_start/byte_end and line_start/line_end
-- index the file, text_start/text_end keep the offsets in the extracted text (which the fact
-- heuristics' offsets index), and lines holds the file's line of each line of the chunk's
-- text as a JSON array, so a document view numbers the extracted lines with the lines search
-- cites. NULL (rows from before, and files read as they are) means the text is the file's:
-- text offsets equal byte offsets and lines run from line_start one by one.
ALTER TABLE chunks ADD COLUMN text_start INTEGER;
ALTER TABLE chunks ADD COLUMN text_end INTEGER;
ALTER TABLE chunks ADD COLUMN lines TEXT;
