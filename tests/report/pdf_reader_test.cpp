// pdf_reader on PDFs built here byte by byte (no Chromium): page order through a nested page tree
// with an inherited MediaBox, outline titles in both string forms with their pages, the Info title,
// and clear errors for what is not a readable PDF.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "pdf_reader.hpp"

namespace gpuvet::testing::pdf {
namespace {

// A PDF from object bodies (object i + 1 = bodies[i]) with a correct cross-reference table.
std::string build(const std::vector<std::string>& bodies, const std::string& trailer) {
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + bodies[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(bodies.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t offset : offsets) {
    const std::string digits = std::to_string(offset);
    out += std::string(10 - digits.size(), '0') + digits + " 00000 n \n";
  }
  return out + "trailer\n" + trailer + "\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
}

TEST(PdfReader, PagesOutlineAndTitle) {
  const std::string pdf = build(
      {
          "<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
          "<< /Type /Pages /Count 3 /Kids [3 0 R 5 0 R] /MediaBox [0 0 595.28 841.89] >>",
          "<< /Type /Pages /Count 2 /Kids [4 0 R 9 0 R] /Parent 2 0 R >>",
          "<< /Type /Page /Parent 3 0 R >>",
          "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 842 595] >>",
          "<< /Type /Outlines /First 7 0 R /Count 2 >>",
          "<< /Title (Machine \\(page 1\\)) /Dest [4 0 R /XYZ 33.75 703.1 0] /Parent 6 0 R /Next 8 0 R /First 10 0 R >>",
          "<< /Title <FEFF0057006800790020003F20AC> /A << /S /GoTo /D [5 0 R /XYZ 0 800 0] >> /Parent 6 0 R >>",
          "<< /Type /Page /Parent 3 0 R >>",
          "<< /Title (Nested) /Dest [9 0 R /XYZ 0 500 0] /Parent 7 0 R >>",
          "<< /Title <FEFF00410034002000720065007000BA> /Producer (test) >>",
      },
      "<< /Size 12 /Root 1 0 R /Info 11 0 R >>");
  const Document doc = read(pdf);
  ASSERT_EQ(doc.pages.size(), 3u);
  EXPECT_NEAR(doc.pages[0].width_pt, 595.28, 1e-9);
  EXPECT_NEAR(doc.pages[1].height_pt, 841.89, 1e-9) << "the MediaBox is inherited from the page tree";
  EXPECT_NEAR(doc.pages[2].width_pt, 842, 1e-9) << "a page's own MediaBox wins";
  ASSERT_EQ(doc.outline.size(), 3u);
  EXPECT_EQ(doc.outline[0].title, "Machine (page 1)");
  EXPECT_EQ(doc.outline[0].page, 0);
  EXPECT_NEAR(doc.outline[0].y_pt, 703.1, 1e-9);
  EXPECT_EQ(doc.outline[1].title, "Nested");
  EXPECT_EQ(doc.outline[1].depth, 1);
  EXPECT_EQ(doc.outline[1].page, 1);
  EXPECT_EQ(doc.outline[2].title, "Why ?\u20ac");
  EXPECT_EQ(doc.outline[2].page, 2) << "a GoTo action's destination counts as well";
  EXPECT_EQ(doc.title, "A4 rep\u00ba");
}

TEST(PdfReader, SaysWhatIsWrong) {
  EXPECT_THROW(read("<html>not a pdf</html>"), std::runtime_error);
  EXPECT_THROW(read("%PDF-1.7\n1 0 obj\n<< >>\nendobj\n"), std::runtime_error) << "no startxref";
  const std::string no_pages = build({"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Count 0 /Kids [] >>"},
                                     "<< /Size 3 /Root 1 0 R >>");
  try {
    read(no_pages);
    FAIL() << "a PDF without pages was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no page"), std::string::npos) << e.what();
  }
  const std::string dangling = build({"<< /Type /Catalog /Pages 7 0 R >>"}, "<< /Size 2 /Root 1 0 R >>");
  EXPECT_THROW(read(dangling), std::runtime_error) << "a reference to a missing object";
}

}  // namespace
}  // namespace gpuvet::testing::pdf
