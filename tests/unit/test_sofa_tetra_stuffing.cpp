// SOFA's MeshTetraStuffing read as a body's mesh (io/sofa_tetra_stuffing.cpp), on a closed box
// whose faces cross no lattice point, edge or diagonal line at a corner: the lattice, the inside
// points, the tetrahedra kept, the points snapped and the tetrahedra cut are worked out here from
// the engine's rules (MeshTetraStuffing.cpp), independently of the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using P = std::array<double, 3>;
using T = std::array<long long, 4>;

// The box |x| <= h[0], |y| <= h[1], |z| <= h[2] as 12 outward triangles.
std::string boxObj(const P& h) {
  std::string obj;
  for (int c = 0; c < 8; ++c)
    obj += "v " + eis::parse::text(c & 1 ? h[0] : -h[0]) + " " +
           eis::parse::text(c & 2 ? h[1] : -h[1]) + " " + eis::parse::text(c & 4 ? h[2] : -h[2]) +
           "\n";
  // Corner c has bit 0 for +x, bit 1 for +y, bit 2 for +z; faces counterclockwise seen outside.
  for (const char* f : {"1 3 4 2", "5 6 8 7", "1 2 6 5", "3 7 8 4", "1 5 7 3", "2 4 8 6"}) {
    int v[4];
    std::sscanf(f, "%d %d %d %d", &v[0], &v[1], &v[2], &v[3]);
    obj += "f " + std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]) +
           "\nf " + std::to_string(v[0]) + " " + std::to_string(v[2]) + " " + std::to_string(v[3]) +
           "\n";
  }
  return obj;
}

struct Mesh {
  std::vector<P> points;
  std::vector<T> tetrahedra;
  std::vector<std::string> warnings;
};

Mesh stuff(const P& half, const std::string& settings,
           const std::string& surface = "<MeshTopology name='s' filename='box.obj'/>") {
  const fs::path folder = fs::path(testing::TempDir()) / "eis_tetra_stuffing";
  fs::create_directories(folder);
  std::ofstream(folder / "box.obj") << boxObj(half);
  eis::SofaImportOptions options;
  options.sceneFolder = folder.string();
  // A MeshOBJLoader's points are its position, a MeshTopology's its points (an alias there).
  const std::string points =
      surface.find("MeshOBJLoader") != std::string::npos ? "position" : "points";
  const std::string text =
      "<Node>" + surface + "<MeshTetraStuffing name='st' " + settings + " inputPoints='@s." +
      points +
      "' inputTriangles='@s.triangles'/><Node name='b'>"
      "<EulerImplicitSolver/><CGLinearSolver/><TetrahedronSetTopologyContainer "
      "points='@../st.outputPoints' tetras='@../st.outputTetras'/><MechanicalObject/>"
      "<UniformMass totalMass='1'/></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  Mesh out;
  out.warnings = imported.warnings;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) {
    if (k.key != "mesh.nodes" && k.key != "mesh.tetrahedra") continue;
    std::vector<double> v;
    for (const std::string& t : eis::parse::tokens(k.value)) v.push_back(std::stod(t));
    if (k.key == "mesh.nodes")
      for (std::size_t i = 0; i + 2 < v.size(); i += 3)
        out.points.push_back({v[i], v[i + 1], v[i + 2]});
    if (k.key == "mesh.tetrahedra")
      for (std::size_t i = 0; i + 3 < v.size(); i += 4)
        out.tetrahedra.push_back(
            {(long long)v[i], (long long)v[i + 1], (long long)v[i + 2], (long long)v[i + 3]});
  }
  return out;
}

double volume6(const Mesh& m, const T& t) {
  P e[3];
  for (int i = 0; i < 3; ++i)
    for (int d = 0; d < 3; ++d) e[i][d] = m.points[t[i + 1]][d] - m.points[t[0]][d];
  return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
         e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
         e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

// The body-centred cubic lattice of cell 1 about the origin that a box of half-widths below 2
// (1% wider: 3 cells out) gives: grid g at the whole numbers -3..3, grid h at the halves
// -3.5..3.5; each tetrahedron holds one edge of g along an axis and two consecutive of the 4
// points of h about it.
struct Lattice {
  std::vector<std::array<P, 4>> tetrahedra;
  Lattice() {
    for (int a = 0; a < 3; ++a)
      for (int x = -3; x <= 3; ++x)
        for (int y = -3; y <= 3; ++y)
          for (int z = -3; z <= 3; ++z) {
            P p{double(x), double(y), double(z)}, q = p;
            if (q[a] == -3) continue;
            q[a] -= 1;
            const int b = (a + 1) % 3, c = (a + 2) % 3;
            P ring[4];
            for (int i = 0; i < 4; ++i) {
              ring[i] = p;
              ring[i][a] -= 0.5;
              ring[i][b] += (i == 1 || i == 2) ? 0.5 : -0.5;
              ring[i][c] += (i >= 2) ? 0.5 : -0.5;
            }
            for (int i = 0; i < 4; ++i) tetrahedra.push_back({p, q, ring[i], ring[(i + 1) % 4]});
          }
  }
};

bool strictlyInside(const P& p, const P& half) {
  return std::abs(p[0]) < half[0] && std::abs(p[1]) < half[1] && std::abs(p[2]) < half[2];
}

// A tetrahedron as the set of its corners, to compare regardless of order.
std::set<P> corners(const std::array<P, 4>& t) {
  return {t[0], t[1], t[2], t[3]};
}

// SOFA's point order: grid g (whole coordinates) before grid h, each z slowest, then y, then x.
bool sofaOrder(const P& a, const P& b) {
  const bool ga = a[0] == std::floor(a[0]), gb = b[0] == std::floor(b[0]);
  if (ga != gb) return ga;
  return std::array<double, 3>{a[2], a[1], a[0]} < std::array<double, 3>{b[2], b[1], b[0]};
}

const P kHalf{1.25, 1.15, 1.35};

TEST(SofaTetraStuffing, KeepsEveryLatticeTetrahedronWithAnInsidePoint) {
  const Mesh m = stuff(kHalf, "size='1'");
  std::set<std::set<P>> expected;
  std::set<P> used;
  for (const auto& t : Lattice().tetrahedra)
    if (std::any_of(t.begin(), t.end(), [](const P& p) { return strictlyInside(p, kHalf); })) {
      expected.insert(corners(t));
      used.insert(t.begin(), t.end());
    }
  std::vector<P> order(used.begin(), used.end());
  std::sort(order.begin(), order.end(), sofaOrder);
  EXPECT_EQ(m.points, order);
  std::set<std::set<P>> got;
  double volume = 0;
  for (const T& t : m.tetrahedra) {
    got.insert(corners({m.points[t[0]], m.points[t[1]], m.points[t[2]], m.points[t[3]]}));
    EXPECT_DOUBLE_EQ(volume6(m, t), 0.5);  // positive, a 12th of a cell
    volume += volume6(m, t) / 6;
  }
  EXPECT_EQ(m.tetrahedra.size(), got.size());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(m.tetrahedra.size(), 432u);
  EXPECT_NEAR(volume, 432.0 / 12, 1e-12);
  EXPECT_TRUE(m.warnings.empty());
}

// The lattice's neighbours: along an axis within a grid (1 apart), or between the grids (a
// half-diagonal apart).
bool neighbours(const P& a, const P& b) {
  double d2 = 0, far = 0;
  for (int c = 0; c < 3; ++c) {
    d2 += (a[c] - b[c]) * (a[c] - b[c]);
    far = std::max(far, std::abs(a[c] - b[c]));
  }
  return (d2 == 1 && far == 1) || (d2 == 0.75 && far == 0.5);
}

std::vector<P> latticePoints() {
  std::vector<P> out;
  for (int x = -7; x <= 7; ++x)
    for (int y = -7; y <= 7; ++y)
      for (int z = -7; z <= 7; ++z) out.push_back({x / 2.0, y / 2.0, z / 2.0});
  std::vector<P> lattice;
  for (const P& p : out) {
    const bool g = p[0] == std::floor(p[0]) && p[1] == std::floor(p[1]) && p[2] == std::floor(p[2]);
    const bool h = p[0] != std::floor(p[0]) && p[1] != std::floor(p[1]) && p[2] != std::floor(p[2]);
    if ((g && std::abs(p[0]) <= 3 && std::abs(p[1]) <= 3 && std::abs(p[2]) <= 3) || h)
      lattice.push_back(p);
  }
  return lattice;
}

// Where the segment from `out` (outside the box) to `in` (inside) enters it.
P entry(const P& out, const P& in) {
  double t = 0;
  for (int c = 0; c < 3; ++c)
    if (std::abs(out[c]) > kHalf[c])
      t = std::max(t, (std::abs(out[c]) - kHalf[c]) / std::abs(out[c] - in[c]));
  return {out[0] + (in[0] - out[0]) * t, out[1] + (in[1] - out[1]) * t,
          out[2] + (in[2] - out[2]) * t};
}

bool onBox(const P& p) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(std::abs(p[c]) - kHalf[c]) < 1e-12) return true;
  return false;
}

// Every face of the tetrahedra in at most 2 of them; those in one (the mesh's boundary) with
// their corners on the box's surface.
void expectClosedOnTheBox(const Mesh& m) {
  std::map<std::array<long long, 3>, int> faces;
  for (const T& t : m.tetrahedra)
    for (int i = 0; i < 4; ++i) {
      std::array<long long, 3> f{t[(i + 1) % 4], t[(i + 2) % 4], t[(i + 3) % 4]};
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  for (const auto& [f, n] : faces) {
    EXPECT_LE(n, 2);
    if (n == 1)
      for (long long v : f) EXPECT_TRUE(onBox(m.points[v])) << v;
  }
}

TEST(SofaTetraStuffing, SplitsTheCrossedTetrahedraAtTheSurface) {
  const Mesh m = stuff(kHalf, "size='1' splitTetras='1'");
  // The inside points, in SOFA's order, then a cut point per lattice edge from an outside point
  // to an inside one, where the edge enters the box.
  std::vector<P> inside, outside, cuts;
  for (const P& p : latticePoints()) (strictlyInside(p, kHalf) ? inside : outside).push_back(p);
  std::sort(inside.begin(), inside.end(), sofaOrder);
  for (const P& o : outside)
    for (const P& i : inside)
      if (neighbours(o, i)) cuts.push_back(entry(o, i));
  ASSERT_EQ(m.points.size(), inside.size() + cuts.size());
  EXPECT_EQ(std::vector<P>(m.points.begin(), m.points.begin() + inside.size()), inside);
  for (const P& c : cuts) {
    int found = 0;
    for (std::size_t k = inside.size(); k < m.points.size(); ++k)
      if (std::abs(m.points[k][0] - c[0]) + std::abs(m.points[k][1] - c[1]) +
              std::abs(m.points[k][2] - c[2]) <
          1e-12)
        ++found;
    EXPECT_EQ(found, 1) << c[0] << " " << c[1] << " " << c[2];
  }
  double volume = 0;
  for (const T& t : m.tetrahedra) {
    EXPECT_GT(volume6(m, t), 0);
    volume += volume6(m, t) / 6;
  }
  expectClosedOnTheBox(m);
  EXPECT_EQ(m.tetrahedra.size(), 768u);
  // Each lattice tetrahedron with an inside corner keeps the hull of its inside corners and its
  // edges' crossings: the whole of it, a corner tetrahedron at its inside corner, all but the one
  // at its outside corner, or (2 and 2) a wedge, whose 4 crossings lie on one face of the box
  // here, so that its volume does not depend on how it is cut. Not the box's volume: near its
  // edges and corners a lattice tetrahedron crossed by two faces loses the part between them.
  const auto v6 = [](const P& a, const P& b, const P& c, const P& d) {
    Mesh x;
    x.points = {a, b, c, d};
    return std::abs(volume6(x, {0, 1, 2, 3}));
  };
  double want = 0;
  int planar = 0, wedges = 0;
  for (const auto& t : Lattice().tetrahedra) {
    std::vector<P> in, out;
    for (const P& p : t) (strictlyInside(p, kHalf) ? in : out).push_back(p);
    const double whole = v6(t[0], t[1], t[2], t[3]);
    if (in.size() == 4) want += whole;
    if (in.size() == 3)
      want += whole - v6(out[0], entry(out[0], in[0]), entry(out[0], in[1]), entry(out[0], in[2]));
    if (in.size() == 1)
      want += v6(in[0], entry(out[0], in[0]), entry(out[1], in[0]), entry(out[2], in[0]));
    if (in.size() == 2) {
      const P a0 = entry(out[0], in[0]), b0 = entry(out[0], in[1]), a1 = entry(out[1], in[0]),
              b1 = entry(out[1], in[1]);
      planar += v6(a0, b0, a1, b1) < 1e-14;
      ++wedges;
      want += v6(in[0], in[1], b0, a1) + v6(in[0], b0, a0, a1) + v6(in[1], b0, a1, b1);
    }
  }
  EXPECT_GT(wedges, 0);
  EXPECT_EQ(planar, wedges);
  EXPECT_NEAR(volume, want / 6, 1e-12);
  EXPECT_TRUE(m.warnings.empty());
}

// With snapPoints: the surface crosses the lattice edges from the inside points at |y| = 1
// (0.15 along y, 0.3 along the diagonals) under alphaLong (0.24999) and alphaShort (0.42978);
// along x (0.25) and z (0.35) it does not. Those points move onto the face along y, the nearest
// crossing (0.15^2 * 4 < 0.3^2 * 3), and are then on the surface: a tetrahedron is kept when it
// has an inside point left. The outside points near z = 1.35 (0.15 from the inside ones along
// z) move only towards outside points, as SOFA's wrapping does, and stay.
TEST(SofaTetraStuffing, SnapsPointsNearTheSurfaceOntoIt) {
  const Mesh m = stuff(kHalf, "size='1' snapPoints='1'");
  const auto snapped = [](const P& p) {
    return p[0] == std::floor(p[0]) && std::abs(p[1]) == 1 && std::abs(p[0]) <= 1 &&
           std::abs(p[2]) <= 1;
  };
  std::set<std::set<P>> expected;
  std::set<P> used;
  for (const auto& t : Lattice().tetrahedra)
    if (std::any_of(t.begin(), t.end(),
                    [&](const P& p) { return strictlyInside(p, kHalf) && !snapped(p); })) {
      expected.insert(corners(t));
      used.insert(t.begin(), t.end());
    }
  std::vector<P> order(used.begin(), used.end());
  std::sort(order.begin(), order.end(), sofaOrder);
  ASSERT_EQ(m.points.size(), order.size());
  Mesh lattice;  // the expected points, snapped
  for (std::size_t k = 0; k < order.size(); ++k) {
    P p = order[k];
    if (snapped(p)) p[1] = p[1] * kHalf[1];
    lattice.points.push_back(p);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(m.points[k][c], p[c], 1e-12) << k;
  }
  std::set<std::set<P>> got;
  double volume = 0, want = 0;
  for (const T& t : m.tetrahedra) {
    got.insert(corners({order[t[0]], order[t[1]], order[t[2]], order[t[3]]}));
    EXPECT_GT(volume6(m, t), 0);
    volume += volume6(m, t) / 6;
    want += std::abs(volume6(lattice, t)) / 6;
  }
  EXPECT_EQ(got, expected);
  EXPECT_EQ(m.tetrahedra.size(), got.size());
  EXPECT_NEAR(volume, want, 1e-12);
  EXPECT_EQ(m.tetrahedra.size(), 224u);
}

// Snapped and split: cut points where the edges still cross, on the surface.
TEST(SofaTetraStuffing, SnappedAndSplitMeshIsClosedOnTheSurface) {
  const Mesh m = stuff(kHalf, "size='1' snapPoints='1' splitTetras='1'");
  for (const T& t : m.tetrahedra) EXPECT_GT(volume6(m, t), 0);
  expectClosedOnTheBox(m);
  EXPECT_EQ(m.tetrahedra.size(), 304u);
}

TEST(SofaTetraStuffing, RefusesWhatItDoesNotRead) {
  using eis_test::errorOf;
  EXPECT_NE(errorOf([] { stuff(kHalf, "size='0'"); }).find("size = '0': expected a width"),
            std::string::npos);
  EXPECT_NE(errorOf([] { stuff(kHalf, "inputQuads='0 1 2 3'"); }).find("inputQuads"),
            std::string::npos);
  EXPECT_NE(errorOf([] { stuff(kHalf, "size='0.001'"); }).find("size too small"),
            std::string::npos);
  EXPECT_NE(errorOf([] { stuff(kHalf, "vbbox='1 2 3'"); }).find("expected 6 numbers"),
            std::string::npos);
}

TEST(SofaTetraStuffing, ReadsTheSurfaceOfAMeshObjLoader) {
  const std::string loader = "<MeshOBJLoader name='s' filename='box.obj'/>";
  const Mesh a = stuff(kHalf, "size='1' splitTetras='1'");
  const Mesh b = stuff(kHalf, "size='1' splitTetras='1'", loader);
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.tetrahedra, b.tetrahedra);
  using eis_test::errorOf;
  EXPECT_NE(errorOf([] {
              stuff(kHalf, "", "<MeshOBJLoader name='s' filename='box.obj' scale3d='2 2 2'/>");
            }).find("scale3d"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              stuff(kHalf, "", "<MeshOBJLoader name='s' filename='box.obj' handleSeams='1'/>");
            }).find("handleSeams"),
            std::string::npos);
}

}  // namespace
