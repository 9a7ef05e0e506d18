/**
 * Sigma node programs of the viewer: `circle` (sigma's own), `square`, `triangle`, `diamond` (one small
 * program of ours per shape: sigma's circle program with a shape distance function in the fragment
 * shader, so picking and antialiasing work the same), and `image` (@sigma/node-image: the node's
 * `image.url` drawn inside the node; an image that cannot be loaded — no CORS header, 404 — leaves the
 * node a plain colored disc, and the details panel still shows it as an <img>).
 */
import { NodeCircleProgram, NodeProgram, type NodeProgramType } from 'sigma/rendering';
import type { NodeDisplayData, RenderParams } from 'sigma/types';
import { floatColor } from 'sigma/utils';
import { createNodeImageProgram } from '@sigma/node-image';
import type { Shape } from './shapes.ts';

const FLOAT = 0x1406;
const UNSIGNED_BYTE = 0x1401;
const TRIANGLES = 0x0004;

// The triangle drawn around each node has twice the circle program's size, so every shape fits.
const VERTEX = /* glsl */ `
attribute vec4 a_id;
attribute vec4 a_color;
attribute vec2 a_position;
attribute float a_size;
attribute float a_angle;
uniform mat3 u_matrix;
uniform float u_sizeRatio;
uniform float u_correctionRatio;
varying vec4 v_color;
varying vec2 v_diffVector;
varying float v_radius;
const float bias = 255.0 / 254.0;
void main() {
  float size = a_size * u_correctionRatio / u_sizeRatio * 8.0;
  vec2 diffVector = size * vec2(cos(a_angle), sin(a_angle));
  vec2 position = a_position + diffVector;
  gl_Position = vec4((u_matrix * vec3(position, 1)).xy, 0, 1);
  v_diffVector = diffVector;
  v_radius = size / 4.0;
  #ifdef PICKING_MODE
  v_color = a_id;
  #else
  v_color = a_color;
  #endif
  v_color.a *= bias;
}
`;

const DISTANCE: Record<Exclude<Shape, 'circle'>, string> = {
  square: `vec2 d = abs(p) - vec2(r * 0.88); return length(max(d, 0.0)) + min(max(d.x, d.y), 0.0);`,
  diamond: `return (abs(p.x) + abs(p.y) - r * 1.25) * 0.7071;`,
  // Equilateral triangle pointing up (half side r * 1.3).
  triangle: `float s = r * 1.3; const float k = 1.7320508; p.y = -p.y; p.x = abs(p.x) - s; p.y = p.y + s / k;
    if (p.x + k * p.y > 0.0) p = vec2(p.x - k * p.y, -k * p.x - p.y) / 2.0;
    p.x -= clamp(p.x, -2.0 * s, 0.0); return -length(p) * sign(p.y);`,
};

function fragment(shape: Exclude<Shape, 'circle'>): string {
  return /* glsl */ `
precision highp float;
varying vec4 v_color;
varying vec2 v_diffVector;
varying float v_radius;
uniform float u_correctionRatio;
const vec4 transparent = vec4(0.0, 0.0, 0.0, 0.0);
float shapeDistance(vec2 p, float r) { ${DISTANCE[shape]} }
void main(void) {
  float border = u_correctionRatio * 2.0;
  float dist = shapeDistance(v_diffVector, v_radius) + border;
  #ifdef PICKING_MODE
  gl_FragColor = dist > border ? transparent : v_color;
  #else
  float t = 0.0;
  if (dist > border) t = 1.0; else if (dist > 0.0) t = dist / border;
  gl_FragColor = mix(v_color, transparent, t);
  #endif
}
`;
}

const UNIFORMS = ['u_sizeRatio', 'u_correctionRatio', 'u_matrix'] as const;
type Uniform = (typeof UNIFORMS)[number];

function createShapeProgram(shape: Exclude<Shape, 'circle'>): NodeProgramType {
  const FRAGMENT = fragment(shape);
  return class ShapeProgram extends NodeProgram<Uniform> {
    getDefinition() {
      return {
        VERTICES: 3,
        VERTEX_SHADER_SOURCE: VERTEX,
        FRAGMENT_SHADER_SOURCE: FRAGMENT,
        METHOD: TRIANGLES,
        UNIFORMS,
        ATTRIBUTES: [
          { name: 'a_position', size: 2, type: FLOAT },
          { name: 'a_size', size: 1, type: FLOAT },
          { name: 'a_color', size: 4, type: UNSIGNED_BYTE, normalized: true },
          { name: 'a_id', size: 4, type: UNSIGNED_BYTE, normalized: true },
        ],
        CONSTANT_ATTRIBUTES: [{ name: 'a_angle', size: 1, type: FLOAT }],
        CONSTANT_DATA: [[0], [(2 * Math.PI) / 3], [(4 * Math.PI) / 3]],
      };
    }

    processVisibleItem(nodeIndex: number, startIndex: number, data: NodeDisplayData): void {
      const array = this.array;
      array[startIndex++] = data.x;
      array[startIndex++] = data.y;
      array[startIndex++] = data.size;
      array[startIndex++] = floatColor(data.color);
      array[startIndex] = nodeIndex;
    }

    setUniforms(params: RenderParams, { gl, uniformLocations }: { gl: WebGLRenderingContext; uniformLocations: Record<Uniform, WebGLUniformLocation> }): void {
      gl.uniform1f(uniformLocations.u_correctionRatio, params.correctionRatio);
      gl.uniform1f(uniformLocations.u_sizeRatio, params.sizeRatio);
      gl.uniformMatrix3fv(uniformLocations.u_matrix, false, params.matrix);
    }
  } as unknown as NodeProgramType;
}

/** Sigma's `nodeProgramClasses`: node `type` → program. */
export function nodePrograms(): Record<string, NodeProgramType> {
  return {
    circle: NodeCircleProgram,
    square: createShapeProgram('square'),
    triangle: createShapeProgram('triangle'),
    diamond: createShapeProgram('diamond'),
    image: createNodeImageProgram({ drawingMode: 'background', keepWithinCircle: true, padding: 0.05, crossOrigin: 'anonymous' }),
  };
}
