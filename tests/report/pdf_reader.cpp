// A small PDF object reader for the print tests; see pdf_reader.hpp (PDF 1.7, ISO 32000-1: 7.3
// objects, 7.5.4 cross-reference table, 7.7.2 catalog, 7.7.3 page tree, 12.3.3 outline).
#include "pdf_reader.hpp"

#include <cctype>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string_view>

namespace gpuvet::testing::pdf {

namespace {

struct Object {
  enum class Kind { null, boolean, number, string, name, ref, array, dict } kind = Kind::null;
  double number = 0;
  std::string text;  // string bytes or name
  int ref = 0;       // object number of a reference
  std::vector<Object> items;
  std::vector<std::string> keys;  // dict: keys[i] -> items[i]

  const Object* get(std::string_view key) const {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &items[i];
    }
    return nullptr;
  }
};

bool is_delimiter(char c) { return std::string_view("()<>[]{}/%").find(c) != std::string_view::npos; }
bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0'; }

class Parser {
 public:
  Parser(std::string_view data, std::size_t pos) : data_(data), pos_(pos) {}

  void skip_space() {
    while (pos_ < data_.size()) {
      if (is_space(data_[pos_])) {
        ++pos_;
      } else if (data_[pos_] == '%') {
        while (pos_ < data_.size() && data_[pos_] != '\n' && data_[pos_] != '\r') ++pos_;
      } else {
        break;
      }
    }
  }

  std::string_view word() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < data_.size() && !is_space(data_[pos_]) && !is_delimiter(data_[pos_])) ++pos_;
    return data_.substr(start, pos_ - start);
  }

  bool take(std::string_view token) {
    skip_space();
    if (data_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  Object parse(int depth = 0) {
    if (depth > 64) throw std::runtime_error("PDF object nested deeper than 64 levels");
    skip_space();
    if (pos_ >= data_.size()) throw std::runtime_error("PDF ends inside an object");
    Object o;
    if (take("<<")) {
      o.kind = Object::Kind::dict;
      while (!take(">>")) {
        if (!take("/")) throw std::runtime_error("PDF dictionary key is not a name at byte " + std::to_string(pos_));
        o.keys.emplace_back(word());
        o.items.push_back(parse(depth + 1));
      }
    } else if (take("<")) {
      o.kind = Object::Kind::string;
      std::string hex;
      while (pos_ < data_.size() && data_[pos_] != '>') {
        if (std::isxdigit(static_cast<unsigned char>(data_[pos_]))) hex += data_[pos_];
        ++pos_;
      }
      ++pos_;
      if (hex.size() % 2 == 1) hex += '0';
      for (std::size_t i = 0; i < hex.size(); i += 2) o.text += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    } else if (take("(")) {
      o.kind = Object::Kind::string;
      o.text = literal();
    } else if (take("[")) {
      o.kind = Object::Kind::array;
      while (!take("]")) o.items.push_back(parse(depth + 1));
    } else if (take("/")) {
      o.kind = Object::Kind::name;
      o.text = word();
    } else {
      const std::string_view w = word();
      if (w.empty()) throw std::runtime_error("unexpected PDF byte at " + std::to_string(pos_));
      if (w == "true" || w == "false") {
        o.kind = Object::Kind::boolean;
        o.number = w == "true" ? 1 : 0;
      } else if (w != "null") {
        o.kind = Object::Kind::number;
        o.number = std::strtod(std::string(w).c_str(), nullptr);
        const std::size_t save = pos_;
        const std::string_view gen = word();
        if (!gen.empty() && std::isdigit(static_cast<unsigned char>(gen[0])) && take("R")) {
          o.kind = Object::Kind::ref;
          o.ref = static_cast<int>(o.number);
        } else {
          pos_ = save;
        }
      }
    }
    return o;
  }

  std::size_t pos() const { return pos_; }

 private:
  // A literal string after its "(": balanced parentheses, backslash escapes (7.3.4.2).
  std::string literal() {
    std::string out;
    int open = 1;
    while (pos_ < data_.size()) {
      const char c = data_[pos_++];
      if (c == '\\' && pos_ < data_.size()) {
        const char e = data_[pos_++];
        const std::string_view simple = "nrtbf()\\";
        const std::string_view meant = "\n\r\t\b\f()\\";
        if (simple.find(e) != std::string_view::npos) {
          out += meant[simple.find(e)];
        } else if (e >= '0' && e <= '7') {
          int value = e - '0';
          for (int k = 0; k < 2 && pos_ < data_.size() && data_[pos_] >= '0' && data_[pos_] <= '7'; ++k) value = value * 8 + (data_[pos_++] - '0');
          out += static_cast<char>(value);
        } else if (e == '\r' && pos_ < data_.size() && data_[pos_] == '\n') {
          ++pos_;
        } else if (e != '\n' && e != '\r') {
          out += e;
        }
        continue;
      }
      if (c == '(') ++open;
      if (c == ')' && --open == 0) break;
      out += c;
    }
    return out;
  }

  std::string_view data_;
  std::size_t pos_;
};

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// A text string (7.9.2.2): UTF-16BE after a FE FF mark, else PDFDocEncoding (taken as Latin-1).
std::string text_string(const std::string& bytes) {
  std::string out;
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0xFE && static_cast<unsigned char>(bytes[1]) == 0xFF) {
    for (std::size_t i = 2; i + 1 < bytes.size(); i += 2) {
      unsigned unit = (static_cast<unsigned char>(bytes[i]) << 8) | static_cast<unsigned char>(bytes[i + 1]);
      if (unit >= 0xD800 && unit < 0xDC00 && i + 3 < bytes.size()) {
        const unsigned low = (static_cast<unsigned char>(bytes[i + 2]) << 8) | static_cast<unsigned char>(bytes[i + 3]);
        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
        i += 2;
      }
      append_utf8(out, unit);
    }
    return out;
  }
  for (char c : bytes) append_utf8(out, static_cast<unsigned char>(c));
  return out;
}

class Reader {
 public:
  explicit Reader(const std::string& bytes) : data_(bytes) {
    const std::size_t at = data_.rfind("startxref");
    if (at == std::string_view::npos) throw std::runtime_error("no startxref: not a PDF, or a truncated one");
    Parser p(data_, at + 9);
    const std::size_t xref = static_cast<std::size_t>(std::strtoull(std::string(p.word()).c_str(), nullptr, 10));
    Parser x(data_, xref);
    if (!x.take("xref")) throw std::runtime_error("no cross-reference table at byte " + std::to_string(xref) + " (a cross-reference stream?)");
    while (!x.take("trailer")) {
      const int first = std::atoi(std::string(x.word()).c_str());
      const int count = std::atoi(std::string(x.word()).c_str());
      if (count < 0 || count > 10'000'000) throw std::runtime_error("bad cross-reference subsection");
      for (int i = 0; i < count; ++i) {
        const auto offset = std::strtoull(std::string(x.word()).c_str(), nullptr, 10);
        x.word();  // generation
        if (x.word() == "n") offsets_[first + i] = static_cast<std::size_t>(offset);
      }
    }
    trailer_ = x.parse();
  }

  const Object& trailer() const { return trailer_; }

  // The object itself, or the object a reference points at.
  Object resolve(const Object* o) {
    if (o == nullptr) return {};
    if (o->kind != Object::Kind::ref) return *o;
    const auto it = offsets_.find(o->ref);
    if (it == offsets_.end()) throw std::runtime_error("reference to object " + std::to_string(o->ref) + ", which the table lacks");
    Parser p(data_, it->second);
    p.word();
    p.word();
    if (!p.take("obj")) throw std::runtime_error("object " + std::to_string(o->ref) + " is not where the table says");
    return p.parse();
  }

 private:
  std::string_view data_;
  std::map<int, std::size_t> offsets_;
  Object trailer_;
};

std::vector<double> numbers(const Object& array) {
  std::vector<double> out;
  for (const auto& item : array.items) out.push_back(item.number);
  return out;
}

void walk_pages(Reader& r, const Object& node, Object media_box, std::map<int, int>& index, int ref, Document& doc, int depth) {
  if (depth > 32) throw std::runtime_error("page tree deeper than 32 levels");
  if (const Object* box = node.get("MediaBox")) media_box = r.resolve(box);
  const Object type = r.resolve(node.get("Type"));
  if (type.text == "Page") {
    const auto box = numbers(media_box);
    if (box.size() != 4) throw std::runtime_error("page " + std::to_string(doc.pages.size() + 1) + " has no MediaBox");
    index[ref] = static_cast<int>(doc.pages.size());
    doc.pages.push_back({box[2] - box[0], box[3] - box[1]});
    return;
  }
  const Object kids = r.resolve(node.get("Kids"));
  for (const auto& kid : kids.items) walk_pages(r, r.resolve(&kid), media_box, index, kid.ref, doc, depth + 1);
}

void walk_outline(Reader& r, const Object* first, int depth, const std::map<int, int>& index, Document& doc) {
  if (depth > 16) throw std::runtime_error("outline deeper than 16 levels");
  Object item = r.resolve(first);
  for (int guard = 0; item.kind == Object::Kind::dict && guard < 10'000; ++guard) {
    OutlineEntry e;
    e.title = text_string(r.resolve(item.get("Title")).text);
    e.depth = depth;
    Object dest = r.resolve(item.get("Dest"));
    if (dest.kind != Object::Kind::array) {
      const Object action = r.resolve(item.get("A"));
      dest = r.resolve(action.get("D"));
    }
    if (dest.kind == Object::Kind::array && !dest.items.empty()) {
      const auto it = index.find(dest.items[0].ref);
      if (it != index.end()) e.page = it->second;
      if (dest.items.size() >= 4 && dest.items[1].text == "XYZ") e.y_pt = dest.items[3].number;
    }
    doc.outline.push_back(e);
    if (item.get("First") != nullptr) walk_outline(r, item.get("First"), depth + 1, index, doc);
    item = r.resolve(item.get("Next"));
  }
}

}  // namespace

Document read(const std::string& bytes) {
  if (bytes.rfind("%PDF-", 0) != 0) throw std::runtime_error("not a PDF: no %PDF- header");
  Reader r(bytes);
  Document doc;
  const Object catalog = r.resolve(r.trailer().get("Root"));
  const Object* pages = catalog.get("Pages");
  if (pages == nullptr) throw std::runtime_error("the catalog has no page tree");
  std::map<int, int> index;
  walk_pages(r, r.resolve(pages), {}, index, pages->ref, doc, 0);
  if (doc.pages.empty()) throw std::runtime_error("the page tree holds no page");
  const Object outlines = r.resolve(catalog.get("Outlines"));
  if (outlines.kind == Object::Kind::dict) walk_outline(r, outlines.get("First"), 0, index, doc);
  const Object info = r.resolve(r.trailer().get("Info"));
  if (info.kind == Object::Kind::dict) doc.title = text_string(r.resolve(info.get("Title")).text);
  return doc;
}

}  // namespace gpuvet::testing::pdf
