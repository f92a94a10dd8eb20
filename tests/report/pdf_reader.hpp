// Reads what the print tests need from a PDF as Chromium writes it (classic cross-reference table,
// uncompressed object dictionaries): the pages in order with their size, the document outline
// (--generate-pdf-document-outline: one entry per heading, with the page and height it points at)
// and the document title. Not a general PDF reader: page content streams are not decoded.
#pragma once

#include <string>
#include <vector>

namespace gpuvet::testing::pdf {

struct Page {
  double width_pt = 0;  // MediaBox, in PDF points (1/72 in); A4 is 595.3 x 841.9
  double height_pt = 0;
};

struct OutlineEntry {
  std::string title;  // UTF-8
  int depth = 0;      // 0 for the top level
  int page = -1;      // index into Document::pages; -1 when the entry names no page
  double y_pt = 0;    // height on the page it points at, from the bottom edge
};

struct Document {
  std::vector<Page> pages;
  std::vector<OutlineEntry> outline;  // in document order (depth first)
  std::string title;                  // Info /Title, UTF-8; empty when absent
};

// Throws std::runtime_error saying what could not be read (no cross-reference table, a page tree
// without pages, a reference to a missing object).
Document read(const std::string& bytes);

}  // namespace gpuvet::testing::pdf
