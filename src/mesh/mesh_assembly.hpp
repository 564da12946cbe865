#pragma once
// What every mesh reader does with the nodes and elements it parses, whatever the format: node
// labels to 0-based positions, tetrahedra or hexahedra checked and kept in the file's vertex order
// (Gmsh's and VTK's first-order orders are SOFA's), triangles kept with their tag, physical groups
// collected, other elements counted. Private to src/mesh.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "eis/mesh/serial_mesh.hpp"
#include "mesh_cursor.hpp"

namespace eis {

// Element types by Gmsh's numbers (VTK's cell types are translated to them).
constexpr int kLineElement = 1;
constexpr int kTriangleElement = 2;
constexpr int kQuadrangleElement = 3;
constexpr int kTetrahedronElement = 4;
constexpr int kHexahedronElement = 5;
constexpr int kMaxNodesPerElement = 56;

// Nodes per element of Gmsh's element types 1..31; 0 for a type this reader does not know,
// whose size, and so whose layout in the file, is unknown.
int gmshNodesPerElement(std::int64_t type);

// Gmsh's name of an element type ("line", "triangle", ..., "type 99").
std::string gmshElementTypeName(int type);

class MeshAssembly {
public:
  // Errors name the place `in` is at when they arise. A grid assembled after its file was read
  // (VTK: `afterReading`) has nodes named by position only, and errors name the file and the
  // cell or point.
  explicit MeshAssembly(const Cursor& in, bool afterReading = false)
      : in_(in), afterReading_(afterReading) {}

  void reserveNodes(std::int64_t count);
  // A node at the next position, with the label elements refer to it by (a Gmsh node tag; 0 is
  // accepted, as SOFA's MeshGmshLoader accepts it: share/mesh/cubeDof.msh numbers its nodes from
  // 0). Fails on a negative label or a coordinate that is not finite.
  void addNode(std::int64_t label, const std::array<double, 3>& point);
  // After the last node: fails when a label repeats.
  void finishNodes();

  // An element of Gmsh type `type` whose nodes are given by label in `nodes` (overwritten with
  // their positions); `tag` is the element's own number, for messages.
  void addElementByLabels(int type, std::int64_t tag, int nodeCount, std::int64_t* nodes,
                          const std::vector<int>& physicals);
  // The same, with the nodes given as 0-based positions the caller has checked (VTK's point
  // ids); `typeName`, when not empty, names the type in the count of skipped elements.
  void addElementByPositions(int type, std::int64_t tag, int nodeCount, const std::int64_t* nodes,
                             const std::vector<int>& physicals, const std::string& typeName = "");

  SerialMesh& mesh() { return mesh_; }
  // Checks that the mesh has cells, fills the skipped counts and the groups' node lists,
  // and hands the mesh over.
  SerialMesh finish(const std::string& noCellsHint);

private:
  void addElement(int type, std::int64_t tag, int nodeCount, const std::int64_t* nodes,
                  const std::vector<int>& physicals, const std::string& typeName);
  void addCell(CellType type, std::int64_t tag, const std::int64_t* nodes, int physical);
  std::string degeneracy(const std::array<std::int64_t, 4>& tet) const;
  std::string hexahedronDegeneracy(const std::int64_t* hex) const;
  void promoteTriangles();
  // A file without volume cells or triangles: its quadrangles, else its lines, become the cells.
  void promoteLowerCells();
  std::string nodeName(std::size_t position) const;
  [[noreturn]] void fail(const std::string& what) const;

  // Maps labels to positions: a dense table when the labels are compact (the usual case, and
  // the fast one), a hash map when they are sparse.
  class NodeIndex {
  public:
    // Returns the position of the first node whose label repeats an earlier one, or -1.
    std::int64_t build(const std::vector<std::int64_t>& labels);
    // The position of a label, or -1 when no node has it.
    std::int64_t find(std::int64_t label) const;

  private:
    bool dense_ = true;
    std::vector<std::int64_t> table_;
    std::unordered_map<std::int64_t, std::int64_t> map_;
  };

  // Collects each physical group's node ids. A per-group bitmap drops repeats as they arrive,
  // so a volume group holding every tetrahedron stores each node once instead of once per
  // element. Bitmaps cost a bit per node and group; past a fixed budget (a file with absurdly
  // many groups) a group stores every id it is given, and sorting removes the repeats at the
  // end.
  class GroupCollector {
  public:
    void add(int tag, const std::int64_t* ids, int count, std::size_t nodeCount);
    std::map<int, std::vector<std::int64_t>> sortedGroups();

  private:
    static constexpr std::size_t kBitmapBudget = std::size_t(1) << 28;  // bytes
    struct Group {
      bool started = false;
      std::vector<bool> seen;
      std::vector<std::int64_t> ids;
    };
    std::map<int, Group> groups_;
    std::size_t bitmapBytes_ = 0;
  };

  const Cursor& in_;
  bool afterReading_;
  SerialMesh mesh_;
  std::vector<std::int64_t> labels_;  // the label of each node, by position
  NodeIndex index_;
  GroupCollector groups_;
  std::map<std::string, std::int64_t> skipped_;
  // Quadrangles and lines, kept in case the file has nothing larger, with their tags; those no
  // group holds, by their readable name, become skipped counts if they do not become cells.
  struct LowerCells {
    explicit LowerCells(CellType type) : cells(type) {}
    SerialCells cells;
    std::vector<int> tags;
    std::map<std::string, std::int64_t> ungrouped;
  };
  LowerCells quadrangles_{CellType::Quadrangle}, lines_{CellType::Edge};
  std::int64_t elementCount_ = 0;  // elements read so far, for messages
  bool hasCells_ = false;          // the first cell fixes the mesh's cell type
};

}  // namespace eis
